package dev.fairbench.spring.forum;

import graphql.execution.AbortExecutionException;
import graphql.execution.instrumentation.Instrumentation;
import graphql.execution.instrumentation.InstrumentationContext;
import graphql.execution.instrumentation.InstrumentationState;
import graphql.execution.instrumentation.parameters.InstrumentationValidationParameters;
import graphql.validation.ValidationError;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * QueryLimits as a graphql-java Instrumentation (Spring Boot hands every Instrumentation bean
 * to the GraphQL engine it builds). It runs as validation begins, before graphql-java's own
 * rules, so an oversized document is refused after one linear pass and never validated or
 * executed; the refusal is an aborted execution, a result without data, which the HTTP
 * endpoint answers as a 400 request error. graphql-java's MaxQueryDepthInstrumentation
 * measures the same depth, but only after validation and by walking every fragment expansion.
 */
@Component
public class QueryLimitsInstrumentation implements Instrumentation {
  @Override
  public InstrumentationContext<List<ValidationError>> beginValidation(InstrumentationValidationParameters parameters, InstrumentationState state) {
    QueryLimits.violation(parameters.getDocument()).ifPresent(message -> {
      throw new AbortExecutionException(message);
    });
    return null; // no callbacks needed
  }
}
