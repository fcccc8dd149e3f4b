package dev.fairbench.spring.web;

import com.fasterxml.jackson.annotation.JsonInclude;

/** An RFC 9457 problem: the five members the spec allows, `detail` optional. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail) {
  public enum Kind {
    INVALID_PARAMETER(400, "invalid-parameter", "Invalid parameter"),
    MALFORMED_BODY(400, "malformed-body", "Malformed request body"),
    INVALID_BODY(400, "invalid-body", "Invalid request body"),
    UNAUTHORIZED(401, "unauthorized", "Unauthorized"),
    FORBIDDEN(403, "forbidden", "Forbidden"),
    NOT_FOUND(404, "not-found", "Not found"),
    ITEM_NOT_FOUND(404, "item-not-found", "Item not found"),
    METHOD_NOT_ALLOWED(405, "method-not-allowed", "Method not allowed"),
    CONFLICT(409, "conflict", "Conflict"),
    PAYLOAD_TOO_LARGE(413, "payload-too-large", "Payload too large"),
    UNSUPPORTED_MEDIA_TYPE(415, "unsupported-media-type", "Unsupported media type"),
    INTERNAL(500, "internal", "Internal server error"),
    UNAVAILABLE(503, "unavailable", "Service unavailable");

    public final int status;
    public final String type;
    public final String title;

    Kind(int status, String name, String title) {
      this.status = status;
      this.type = "urn:fairbench:problem:" + name;
      this.title = title;
    }

    public Problem with(String detail) {
      return new Problem(type, title, status, detail);
    }
  }
}
