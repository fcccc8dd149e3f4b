package dev.fairbench.spring.forum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The schema Spring for GraphQL serves (resources/graphql/schema.graphqls, a copy because the
 * image is built from impl/spring alone) is spec/schema.graphql, byte for byte: an edit to
 * either without the other fails here.
 */
class SchemaFileTest {
  @Test
  void theServedSchemaFileIsSpecSchemaGraphql() throws Exception {
    Path spec = Path.of("../../spec/schema.graphql");
    assumeTrue(Files.exists(spec), "no spec/schema.graphql next to this implementation");
    assertThat(Files.readString(Path.of("src/main/resources/graphql/schema.graphqls"))).isEqualTo(Files.readString(spec));
  }
}
