package dev.fairbench.spring.documents;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fairbench.spring.web.Problem;
import dev.fairbench.spring.web.ProblemException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.bson.Document;

/**
 * A valid body (spec/openapi.yaml: DocumentsInput): `kind` and a `payload` of exactly that
 * kind's shape, no other member, checked on the parsed JSON tree (a oneOf by `kind`, which
 * annotations on a record cannot say), and turned into the BSON value to store: a string, a
 * list of strings, a document, or a list of documents, in the order sent.
 */
public record DocumentsInput(String kind, Object payload) {
  private static final Pattern PRINTABLE = Pattern.compile("[\\x20-\\x7E]*");
  private static final Pattern ATTRIBUTE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,31}");

  /** The input, or a 400 invalid-body problem saying what is wrong. */
  public static DocumentsInput of(JsonNode body) {
    if (body == null || !body.isObject()) throw invalid("the body must be a JSON object");
    Iterator<String> names = body.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!name.equals("kind") && !name.equals("payload")) throw invalid("\"" + name + "\" is not allowed");
    }
    JsonNode kind = body.get("kind");
    if (kind == null) throw invalid("\"kind\" is required");
    JsonNode payload = body.get("payload");
    if (payload == null) throw invalid("\"payload\" is required");
    if (!kind.isTextual()) throw invalid("\"kind\" must be one of text, list, record, table");
    return switch (kind.textValue()) {
      case "text" -> new DocumentsInput("text", text(payload, 1000, "payload"));
      case "list" -> new DocumentsInput("list", list(payload));
      case "record" -> new DocumentsInput("record", attributes(payload, 100, 100, "payload"));
      case "table" -> new DocumentsInput("table", table(payload));
      default -> throw invalid("\"kind\" must be one of text, list, record, table");
    };
  }

  private static ProblemException invalid(String detail) {
    return new ProblemException(Problem.Kind.INVALID_BODY, detail);
  }

  /** A string of exactly `length` printable ASCII characters. */
  private static String text(JsonNode node, int length, String where) {
    if (!node.isTextual()) throw invalid(where + " must be a string");
    String value = node.textValue();
    if (value.length() != length || !PRINTABLE.matcher(value).matches()) {
      throw invalid(where + " must be exactly " + length + " printable ASCII characters");
    }
    return value;
  }

  private static List<String> list(JsonNode node) {
    if (!node.isArray() || node.size() != 100) throw invalid("payload must be an array of exactly 100 strings");
    List<String> values = new ArrayList<>(100);
    for (int i = 0; i < node.size(); i++) values.add(text(node.get(i), 100, "payload[" + i + "]"));
    return values;
  }

  /** An object of exactly `count` attributes with valid names, each `length` characters. */
  private static Document attributes(JsonNode node, int count, int length, String where) {
    if (!node.isObject() || node.size() != count) throw invalid(where + " must be an object of exactly " + count + " attributes");
    Document values = new Document();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (!ATTRIBUTE_NAME.matcher(field.getKey()).matches()) throw invalid(where + " has an attribute name that is not allowed: " + field.getKey());
      values.append(field.getKey(), text(field.getValue(), length, where + "." + field.getKey()));
    }
    return values;
  }

  private static List<Document> table(JsonNode node) {
    if (!node.isArray() || node.size() != 50) throw invalid("payload must be an array of exactly 50 rows");
    List<Document> rows = new ArrayList<>(50);
    for (int i = 0; i < node.size(); i++) rows.add(attributes(node.get(i), 50, 50, "payload[" + i + "]"));
    return rows;
  }
}
