package dev.fairbench.spring.tpcc;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;

/**
 * JSON Schema's integers: 8 and 8.0 are the same integer (Schemathesis sends both), 8.5 is
 * none. Jackson either refuses every float for an int (Boot's strict setting here) or
 * truncates 8.5 to 8, so the tpcc reader takes Integer members through this deserializer: a
 * float token is accepted when it has no fraction and fits an int, refused otherwise;
 * strings, booleans and the rest are refused as before.
 */
final class WholeNumbers extends StdScalarDeserializer<Integer> {
  static final SimpleModule MODULE = new SimpleModule("tpcc-whole-numbers").addDeserializer(Integer.class, new WholeNumbers());

  private WholeNumbers() {
    super(Integer.class);
  }

  @Override
  public Integer deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT) return p.getIntValue();
    if (p.currentToken() == JsonToken.VALUE_NUMBER_FLOAT) {
      try {
        return p.getDecimalValue().intValueExact();
      } catch (ArithmeticException | NumberFormatException e) {
        return (Integer) ctxt.handleWeirdNumberValue(Integer.class, p.getNumberValue(), "not an integer in the int range");
      }
    }
    if (p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
      return (Integer) ctxt.handleWeirdNumberValue(Integer.class, p.getNumberValue(), "not in the int range");
    }
    return (Integer) ctxt.handleUnexpectedToken(Integer.class, p);
  }

  /** For a member that is absent or null (nulls are refused by the controller anyway). */
  @Override
  public Integer getNullValue(DeserializationContext ctxt) {
    return null;
  }
}
