package dev.fairbench.spring.web;

/** Ends a request with a problem (ProblemHandler renders it). */
public class ProblemException extends RuntimeException {
  public final Problem.Kind kind;

  public ProblemException(Problem.Kind kind, String detail) {
    super(detail, null, false, false); // no stack trace: an expected outcome, not a fault
    this.kind = kind;
  }

  public Problem problem() {
    return kind.with(getMessage());
  }
}
