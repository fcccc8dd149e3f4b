package dev.fairbench.spring.sports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import org.junit.jupiter.api.Test;

/** A rating's comment: missing is null, an explicit null is refused (a 400 before the state's 409; issue 41). */
class BodiesTest {
  private final ObjectMapper mapper = new ObjectMapper();

  @Test
  void aMissingCommentIsNullAndAnExplicitNullIsRefused() throws Exception {
    Bodies.NewRating without = mapper.readValue("{\"score\":4}", Bodies.NewRating.class);
    assertEquals(4, without.score());
    assertNull(without.comment());
    assertEquals("ok", mapper.readValue("{\"score\":4,\"comment\":\"ok\"}", Bodies.NewRating.class).comment());
    assertThrows(InvalidNullException.class, () -> mapper.readValue("{\"score\":4,\"comment\":null}", Bodies.NewRating.class));
  }
}
