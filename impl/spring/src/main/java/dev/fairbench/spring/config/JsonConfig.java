package dev.fairbench.spring.config;

import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * JSON types are not converted (the contract: a numeric password or comment is a 400):
 * besides application.properties' strict features, numbers and booleans are refused where
 * a string is declared, which Jackson would otherwise accept as text.
 */
@Configuration
public class JsonConfig {
  @Bean
  Jackson2ObjectMapperBuilderCustomizer strictScalars() {
    return builder -> builder.postConfigurer(mapper -> mapper.coercionConfigFor(LogicalType.Textual)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
  }
}
