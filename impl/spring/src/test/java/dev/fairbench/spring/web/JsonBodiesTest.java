package dev.fairbench.spring.web;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonBodiesTest {
  private static byte[] withBytes(int... bad) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("{\"name\":\"A".getBytes(StandardCharsets.UTF_8));
    for (int b : bad) out.write(b);
    out.writeBytes("\"}".getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  @Test
  void bytesThatAreNotUtf8AreMalformed() {
    // 0xFF, a truncated sequence, an overlong '.' (Jackson reads that one as the character), a surrogate (issue 51).
    for (byte[] body : new byte[][] {withBytes(0xFF, 0xFE), withBytes(0xC3), withBytes(0xC0, 0xAE), withBytes(0xED, 0xA0, 0x80)}) {
      ProblemException e = assertThrows(ProblemException.class, () -> JsonBodies.requireUtf8(body));
      assertEquals(Problem.Kind.MALFORMED_BODY, e.kind);
    }
    // Past the decoder's 1 KiB scratch buffer too.
    byte[] late = ("{\"name\":\"" + "x".repeat(5000) + "\u00ff\"}").getBytes(StandardCharsets.ISO_8859_1);
    assertThrows(ProblemException.class, () -> JsonBodies.requireUtf8(late));
  }

  @Test
  void utf8OfAnyLengthPasses() {
    assertDoesNotThrow(() -> JsonBodies.requireUtf8(withBytes(0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80)));
    // Longer than the decoder's 1 KiB scratch buffer, with a multi-byte character across its edge.
    assertDoesNotThrow(() -> JsonBodies.requireUtf8(("{\"name\":\"" + "é".repeat(3000) + "\"}").getBytes(StandardCharsets.UTF_8)));
  }
}
