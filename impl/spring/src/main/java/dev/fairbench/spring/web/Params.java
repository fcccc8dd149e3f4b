package dev.fairbench.spring.web;

import java.util.List;
import java.util.regex.Pattern;

/** Path and query parameters: canonical decimals (no sign, no leading zeros) in a range, or one of a list. */
public final class Params {
  private static final Pattern CANONICAL = Pattern.compile("[1-9][0-9]{0,9}");
  public static final long MAX_ID = 2147483647L;

  private Params() {}

  /** The value of a canonical decimal from 1 to max, or null. */
  public static Integer parse(String raw, long max) {
    if (raw == null || !CANONICAL.matcher(raw).matches()) return null;
    long value = Long.parseLong(raw);
    return value <= max ? (int) value : null;
  }

  public static int id(String raw) {
    Integer id = parse(raw, MAX_ID);
    if (id == null) throw new ProblemException(Problem.Kind.INVALID_PARAMETER, "id must be an integer from 1 to 2147483647");
    return id;
  }

  /** An optional query number: `fallback` when absent. */
  public static int query(String name, String raw, long max, int fallback) {
    if (raw == null) return fallback;
    Integer value = parse(raw, max);
    if (value == null) throw new ProblemException(Problem.Kind.INVALID_PARAMETER, name + " must be an integer from 1 to " + max);
    return value;
  }

  /** An optional query value from a list: null when absent. */
  public static String choice(String name, String raw, List<String> choices) {
    if (raw == null) return null;
    if (!choices.contains(raw)) throw new ProblemException(Problem.Kind.INVALID_PARAMETER, name + " must be one of " + String.join(", ", choices));
    return raw;
  }
}
