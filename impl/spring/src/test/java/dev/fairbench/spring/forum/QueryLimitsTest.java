package dev.fairbench.spring.forum;

import static org.assertj.core.api.Assertions.assertThat;

import graphql.parser.Parser;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The contract's depth and root-field limits, counted as spec/schema.graphql defines them. */
class QueryLimitsTest {
  private static Optional<String> violation(String query) {
    return QueryLimits.violation(Parser.parse(query));
  }

  /** `{ commentById(id: 1) { user { … } } }`-like nesting of `depth` fields. */
  private static String nested(int depth) {
    return "{ " + "a { ".repeat(depth - 1) + "b" + " }".repeat(depth - 1) + " }";
  }

  @Test
  void depthCountsTheFieldsAlongTheDeepestPathFifteenIsAcceptedSixteenIsNot() {
    assertThat(violation("{ commentById(id: 1) { body } }")).isEmpty();
    assertThat(violation(nested(15))).isEmpty();
    assertThat(violation(nested(16))).contains("The operation has depth 16; the maximum depth is 15.");
  }

  @Test
  void fragmentsAddNoDepthOfTheirOwnButTheirFieldsCount() {
    String inFragments = "query Deep { a { ...F } } fragment F on T { b { ... on T { " + "c { ".repeat(13) + "d" + " }".repeat(13) + " } } }";
    assertThat(violation(inFragments)).contains("Operation \"Deep\" has depth 16; the maximum depth is 15.");
  }

  @Test
  void rootFieldsCountEveryAliasAndEveryFieldSpreadIntoTheRoot() {
    String ten = "{ " + "x: commentById(id: 1) { body } ".repeat(10) + "}";
    assertThat(violation(ten)).isEmpty();
    String eleven = "{ ...R } fragment R on Query { " + "x: commentById(id: 1) { body } ".repeat(11) + "}";
    assertThat(violation(eleven)).contains("The operation selects 11 root fields; at most 10 are allowed.");
  }

  @Test
  void fragmentsSpreadIntoFragmentsAreMeasuredOnceAndCyclesEnd() {
    // 40 fragments, each spreading the next twice: 2^40 paths if expanded, one pass memoised.
    StringBuilder doc = new StringBuilder("{ a { ...F0 } }");
    for (int i = 0; i < 40; i++) doc.append(" fragment F").append(i).append(" on T { x { ...F").append(i + 1).append(" } y { ...F").append(i + 1).append(" } }");
    doc.append(" fragment F40 on T { z }");
    long started = System.nanoTime();
    assertThat(violation(doc.toString())).contains("The operation has depth 42; the maximum depth is 15.");
    assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(1000);
    assertThat(violation("{ a { ...A } } fragment A on T { b { ...B } } fragment B on T { c { ...A } }")).isEmpty();
  }
}
