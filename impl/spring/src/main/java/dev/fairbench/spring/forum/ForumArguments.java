package dev.fairbench.spring.forum;

import dev.fairbench.spring.web.Params;

/**
 * The forum's parameter rules, the same for a REST path segment and a GraphQL argument: an id
 * is a canonical decimal (no sign, no leading zeros) from 1 to 2147483647, a limit one from 1
 * to 100. GraphQL hands an `ID` over as a string (an Int literal becomes its decimal form) and
 * a limit as an int, so both go through the same check. Null when the value breaks the rule.
 */
final class ForumArguments {
  static final int MAX_LIMIT = 100;
  static final String ID_RULE = "an integer from 1 to 2147483647 (no sign, no leading zeros)";
  static final String LIMIT_RULE = "an integer from 1 to 100 (no sign, no leading zeros)";

  private ForumArguments() {}

  static Integer id(String raw) {
    return Params.parse(raw, Params.MAX_ID);
  }

  static Integer limit(String raw) {
    return Params.parse(raw, MAX_LIMIT);
  }

  static Integer limit(int value) {
    return value >= 1 && value <= MAX_LIMIT ? value : null;
  }
}
