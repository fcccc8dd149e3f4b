package dev.fairbench.spring.sports;

import dev.fairbench.spring.security.CallerAuthentication;
import dev.fairbench.spring.security.Tokens;
import dev.fairbench.spring.web.JsonBodies;
import dev.fairbench.spring.web.Params;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The paper's 14 endpoints under /sports. Path and query parameters arrive as strings and
 * are checked here (400 invalid-parameter); bodies arrive as bytes and are read by
 * JsonBodies after the checks the spec puts before them.
 */
@RestController
@RequestMapping("/sports")
@ConditionalOnProperty(name = "POSTGRES_URL")
public class SportsController {
  private static final List<String> SPORTS = List.of("tennis", "padel", "football", "basketball", "volleyball");
  private static final List<String> STATUSES = List.of("pending", "accepted", "refused");
  private static final int MAX_PAGE = 100000;
  private static final int DEFAULT_SIZE = 20;

  private final SportsService service;
  private final JsonBodies bodies;
  private final Tokens tokens;

  public SportsController(SportsService service, JsonBodies bodies, Tokens tokens) {
    this.service = service;
    this.bodies = bodies;
    this.tokens = tokens;
  }

  private static int page(String raw) {
    return Params.query("page", raw, MAX_PAGE, 1);
  }

  private static int size(String raw) {
    return Params.query("size", raw, 100, DEFAULT_SIZE);
  }

  private static <T> ResponseEntity<T> created(String location, T body) {
    return ResponseEntity.created(URI.create(location)).body(body);
  }

  @PostMapping("/login")
  Map<String, Object> login(@RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type, @RequestBody(required = false) byte[] body) {
    Views.User user = service.login(bodies.read(type, body, Bodies.Login.class));
    return Map.of("token", tokens.issue(user), "tokenType", "Bearer", "expiresIn", tokens.lifetimeSeconds());
  }

  @PostMapping("/users")
  ResponseEntity<Views.User> register(@RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type, @RequestBody(required = false) byte[] body) {
    Views.User user = service.register(bodies.read(type, body, Bodies.Registration.class));
    return created("/sports/users/" + user.id(), user);
  }

  @GetMapping("/users/{id}")
  Views.User user(@PathVariable String id) {
    return service.user(Params.id(id));
  }

  @GetMapping("/sports-facilities")
  Views.Page<Views.Facility> facilities(@RequestParam(required = false) String page, @RequestParam(required = false) String size) {
    return service.facilities(page(page), size(size));
  }

  @GetMapping("/sports-facilities/{id}")
  Views.FacilityWithFields facility(@PathVariable String id) {
    return service.facility(Params.id(id));
  }

  @PostMapping("/sports-facilities/{id}/sports-field")
  ResponseEntity<Views.Field> createField(CallerAuthentication auth, @PathVariable String id,
      @RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type, @RequestBody(required = false) byte[] body) {
    int facilityId = Params.id(id);
    service.fieldCreationAllowed(auth.caller(), facilityId);
    Views.Field field = service.createField(facilityId, bodies.read(type, body, Bodies.NewField.class));
    return created("/sports/sports-fields/" + field.id(), field);
  }

  @GetMapping("/sports-fields")
  Views.Page<Views.Field> fields(@RequestParam(required = false) String page, @RequestParam(required = false) String size, @RequestParam(required = false) String sport) {
    int p = page(page);
    int s = size(size);
    return service.fields(p, s, Params.choice("sport", sport, SPORTS));
  }

  @GetMapping("/sports-fields/{id}")
  Views.Field field(@PathVariable String id) {
    return service.field(Params.id(id));
  }

  @GetMapping("/reservations")
  Views.Page<Views.ReservationListItem> reservations(CallerAuthentication auth, @RequestParam(required = false) String page, @RequestParam(required = false) String size,
      @RequestParam(required = false) String status) {
    int p = page(page);
    int s = size(size);
    return service.reservations(auth.caller(), p, s, Params.choice("status", status, STATUSES));
  }

  @PostMapping("/reservations")
  ResponseEntity<Views.Reservation> reserve(CallerAuthentication auth, @RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type,
      @RequestBody(required = false) byte[] body) {
    service.reservingAllowed(auth.caller());
    Views.Reservation r = service.reserve(auth.caller(), bodies.read(type, body, Bodies.NewReservation.class));
    return created("/sports/reservations/" + r.id(), r);
  }

  @GetMapping("/reservations/{id}")
  Views.Reservation reservation(CallerAuthentication auth, @PathVariable String id) {
    return service.readable(auth.caller(), Params.id(id)).reservation();
  }

  @PutMapping("/reservations/{id}/status")
  Views.Reservation decide(CallerAuthentication auth, @PathVariable String id, @RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type,
      @RequestBody(required = false) byte[] body) {
    int reservationId = Params.id(id);
    service.decisionAllowed(auth.caller(), reservationId);
    return service.decide(reservationId, bodies.read(type, body, Bodies.Decision.class));
  }

  @GetMapping("/reservations/{id}/rating")
  Views.Rating rating(CallerAuthentication auth, @PathVariable String id) {
    return service.rating(auth.caller(), Params.id(id));
  }

  @PostMapping("/reservations/{id}/rating")
  ResponseEntity<Views.Rating> rate(CallerAuthentication auth, @PathVariable String id, @RequestHeader(value = HttpHeaders.CONTENT_TYPE, required = false) String type,
      @RequestBody(required = false) byte[] body) {
    Views.OwnedReservation r = service.ratingAllowed(auth.caller(), Params.id(id));
    Views.Rating rating = service.rate(r, bodies.read(type, body, Bodies.NewRating.class));
    return created("/sports/reservations/" + r.reservation().id() + "/rating", rating);
  }
}
