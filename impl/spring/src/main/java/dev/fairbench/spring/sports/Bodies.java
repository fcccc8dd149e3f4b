package dev.fairbench.spring.sports;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** The request bodies (spec/openapi.yaml: LoginRequest, SportsRegistration, SportsFieldInput, SportsReservationInput, SportsStatusInput, SportsRatingInput). */
public final class Bodies {
  private Bodies() {}

  /** Free text is PostgreSQL text, which cannot hold U+0000 (spec/README.md, sports rule 12). */
  static final String NO_NUL = "[^\\x00]*";

  public record Login(@NotNull @Chars(min = 1, max = 64) String username, @NotNull @Chars(min = 1, max = 72, maxBytes = 72) String password) {}

  public record Registration(
      @NotNull @Chars(min = 3, max = 64) @Pattern(regexp = "[A-Za-z0-9._-]+") String username,
      @NotNull @Chars(min = 6, max = 72, maxBytes = 72) String password,
      @NotNull @Chars(min = 1, max = 100) @Pattern(regexp = NO_NUL) String name,
      @NotNull @Chars(min = 1, max = 100) @Pattern(regexp = NO_NUL) String surname) {}

  public record NewField(
      @NotNull @Chars(min = 1, max = 100) @Pattern(regexp = NO_NUL) String name,
      @NotNull @Pattern(regexp = "tennis|padel|football|basketball|volleyball") String sport,
      @NotNull @Min(1) @Max(1000) Integer pricePerHour) {}

  public record NewReservation(
      @NotNull @Min(1) @Max(2147483647) Integer fieldId,
      @NotNull @Pattern(regexp = "[0-9]{4}-[0-9]{2}-[0-9]{2}") String date,
      @NotNull @Min(6) @Max(22) Integer startHour,
      @NotNull @Min(7) @Max(23) Integer endHour) {}

  public record Decision(@NotNull @Pattern(regexp = "accepted|refused") String status) {}

  /**
   * The comment may be left out but not null (null is not a string, so a 400 before the state's
   * 409). A class with setters, not a record: Jackson calls a setter only for a member that is
   * present, so Nulls.FAIL refuses an explicit null and a missing comment stays null; a record's
   * constructor gets null for both.
   */
  public static final class NewRating {
    @NotNull @Min(1) @Max(5) private Integer score;
    @Chars(min = 1, max = 500) @Pattern(regexp = NO_NUL) private String comment;

    public Integer score() {
      return score;
    }

    public String comment() {
      return comment;
    }

    @JsonSetter("score")
    void setScore(Integer score) {
      this.score = score;
    }

    @JsonSetter(value = "comment", nulls = Nulls.FAIL)
    void setComment(String comment) {
      this.comment = comment;
    }
  }
}
