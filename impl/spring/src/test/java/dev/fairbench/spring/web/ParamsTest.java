package dev.fairbench.spring.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ParamsTest {
  @Test
  void canonicalDecimalsInRangeOnly() {
    assertEquals(1, Params.parse("1", Params.MAX_ID));
    assertEquals(2147483647, Params.parse("2147483647", Params.MAX_ID));
    for (String bad : new String[] {"0", "01", "-1", "+1", "1.5", "1e3", "abc", "", "2147483648", "99999999999"}) {
      assertNull(Params.parse(bad, Params.MAX_ID), bad);
    }
    assertNull(Params.parse("101", 100));
  }

  @Test
  void absentQueryValuesTakeTheirDefaultAndBadOnesAre400() {
    assertEquals(20, Params.query("size", null, 100, 20));
    ProblemException e = assertThrows(ProblemException.class, () -> Params.query("size", "0", 100, 20));
    assertEquals(Problem.Kind.INVALID_PARAMETER, e.kind);
    assertThrows(ProblemException.class, () -> Params.choice("sport", "golf", java.util.List.of("tennis")));
  }
}
