package dev.fairbench.spring.forum;

import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.fairbench.spring.config.JsonConfig;
import dev.fairbench.spring.security.SecurityConfig;
import dev.fairbench.spring.web.ProblemHandler;
import dev.fairbench.spring.web.ServerTimingFilter;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.graphql.GraphQlAutoConfiguration;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/**
 * The forum's REST routes and POST /graphql (Spring for GraphQL's engine over the schema file,
 * the @QueryMapping controller, the limits) over a mocked repository: the parameter rules,
 * 404s and nulls, problems, request errors as 400s without data, field errors, the limits, the
 * one-statement join, Server-Timing.
 */
@WebMvcTest(controllers = {ForumController.class, GraphQlHttpController.class, ForumGraphQlController.class})
@ImportAutoConfiguration(GraphQlAutoConfiguration.class)
@Import({SecurityConfig.class, JsonConfig.class, ProblemHandler.class, ServerTimingFilter.class, ForumService.class, QueryLimitsInstrumentation.class})
@TestPropertySource(properties = {"JWT_SECRET=unit-test-secret-of-at-least-32-bytes!", "PORT=0", "MYSQL_URL=mysql://unused/forum"})
class ForumControllerTest {
  private static final ForumViews.Comment SEVEN = new ForumViews.Comment(7, 3, 999999, "a comment whose user is gone", "2021-02-03", null);
  private static final ForumViews.User FIVE = new ForumViews.User(5, "Ada", "ada@example.org", "555", null, "2030-01-31");
  private static final ForumViews.CommentWithUser FIRST_OF_FIVE = new ForumViews.CommentWithUser(41, 2, 5, "first", "2020-01-01", "2020-01-02", FIVE);
  private static final ForumViews.CommentWithUser SECOND_OF_FIVE = new ForumViews.CommentWithUser(42, 2, 5, "second", null, null, FIVE);
  private static final String WITH_USER = "comment_id thread_id user_id body datemade datelastupdated user { user_id name email phone datemade datelastupdated }";

  @Autowired MockMvc mvc;
  @MockitoBean ForumRepository repository;

  private ResultActions graphql(String body) throws Exception {
    return mvc.perform(post("/graphql").contentType(MediaType.APPLICATION_JSON).content(body));
  }

  private ResultActions query(String query) throws Exception {
    return graphql("{\"query\":\"" + query.replace("\"", "\\\"") + "\"}");
  }

  // --- REST ---------------------------------------------------------------------------------

  @Test
  void aCommentIsItsColumnsWithNullDatesAndServerTiming() throws Exception {
    given(repository.commentById(7)).willReturn(Optional.of(SEVEN));
    mvc.perform(get("/comment/7"))
        .andExpect(status().isOk())
        .andExpect(header().string("Server-Timing", matchesPattern("app;dur=[0-9]+\\.[0-9]{3}")))
        .andExpect(content().json("{\"comment_id\":7,\"thread_id\":3,\"user_id\":999999,\"body\":\"a comment whose user is gone\",\"datemade\":\"2021-02-03\",\"datelastupdated\":null}", true));
  }

  @Test
  void pathParametersAreCanonicalDecimalsInRangeCheckedBeforeTheDatabase() throws Exception {
    for (String bad : List.of("01", "+1", "0", "abc", "2147483648", "1.5")) {
      mvc.perform(get("/comment/" + bad)).andExpect(status().isBadRequest())
          .andExpect(content().contentType("application/problem+json"))
          .andExpect(jsonPath("$.type").value("urn:fairbench:problem:invalid-parameter"));
    }
    mvc.perform(get("/comments/101")).andExpect(status().isBadRequest()).andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("'limit'")));
    mvc.perform(get("/user/1/comments/0")).andExpect(status().isBadRequest());
    verifyNoInteractions(repository);
  }

  @Test
  void missingRowsAre404sButAUserWithoutCommentsHasAnEmptyList() throws Exception {
    given(repository.commentById(10001)).willReturn(Optional.empty());
    given(repository.commentsOfUser(anyInt(), anyInt())).willReturn(List.of());
    given(repository.userExists(500)).willReturn(true);
    mvc.perform(get("/comment/10001")).andExpect(status().isNotFound()).andExpect(jsonPath("$.type").value("urn:fairbench:problem:not-found"));
    mvc.perform(get("/user/500/comment")).andExpect(status().isNotFound());
    mvc.perform(get("/user/500/comments/5")).andExpect(status().isOk()).andExpect(content().json("[]", true));
    mvc.perform(get("/user/101/comments/5")).andExpect(status().isNotFound());
  }

  @Test
  void aUsersCommentsAreOneJoinWithTheUserNested() throws Exception {
    given(repository.commentsOfUser(5, 2)).willReturn(List.of(FIRST_OF_FIVE, SECOND_OF_FIVE));
    mvc.perform(get("/user/5/comments/2")).andExpect(status().isOk())
        .andExpect(jsonPath("$[1].comment_id").value(42))
        .andExpect(jsonPath("$[1].user.name").value("Ada"))
        .andExpect(jsonPath("$[1].datemade").value(org.hamcrest.Matchers.nullValue()));
    verify(repository, times(1)).commentsOfUser(5, 2);
    verify(repository, times(0)).userExists(anyInt());
  }

  @Test
  void otherMethodsAre405sWithAllow() throws Exception {
    mvc.perform(post("/comment/1")).andExpect(status().isMethodNotAllowed())
        .andExpect(content().contentType("application/problem+json")).andExpect(header().string("Allow", org.hamcrest.Matchers.containsString("GET")));
    mvc.perform(get("/graphql")).andExpect(status().isMethodNotAllowed()).andExpect(header().string("Allow", "POST"));
  }

  @Test
  void aDatabaseThatDoesNotAnswerIsA503WithRetryAfter() throws Exception {
    given(repository.commentById(1)).willThrow(new CannotGetJdbcConnectionException("timeout", new SQLTransientConnectionException("pool timeout")));
    mvc.perform(get("/comment/1")).andExpect(status().isServiceUnavailable())
        .andExpect(header().string("Retry-After", "1")).andExpect(jsonPath("$.type").value("urn:fairbench:problem:unavailable"));
  }

  // --- GraphQL ------------------------------------------------------------------------------

  @Test
  void aQueryAnswersTheSameObjectsAsRestAsApplicationJson() throws Exception {
    given(repository.commentsOfUser(5, 1)).willReturn(List.of(FIRST_OF_FIVE));
    query("{ commentByUserId(id: 5) { " + WITH_USER + " } }")
        .andExpect(status().isOk())
        .andExpect(content().contentType(MediaType.APPLICATION_JSON))
        .andExpect(header().string("Server-Timing", matchesPattern("app;dur=[0-9]+\\.[0-9]{3}")))
        .andExpect(content().json("{\"data\":{\"commentByUserId\":{\"comment_id\":41,\"thread_id\":2,\"user_id\":5,\"body\":\"first\",\"datemade\":\"2020-01-01\","
            + "\"datelastupdated\":\"2020-01-02\",\"user\":{\"user_id\":5,\"name\":\"Ada\",\"email\":\"ada@example.org\",\"phone\":\"555\",\"datemade\":null,\"datelastupdated\":\"2030-01-31\"}}}}", true));
  }

  @Test
  void variablesAndAStringIdAreTakenMissingRowsAreNullAndAUserWithoutCommentsHasAnEmptyList() throws Exception {
    given(repository.commentById(10001)).willReturn(Optional.empty());
    given(repository.commentsOfUser(anyInt(), anyInt())).willReturn(List.of());
    given(repository.userExists(10001)).willReturn(true); // a user without comments: []
    graphql("{\"query\":\"query Q($id: ID!, $limit: Int!) { commentById(id: $id) { body } commentsByUserId(id: $id, limit: $limit) { body } }\","
        + "\"variables\":{\"id\":\"10001\",\"limit\":10},\"operationName\":\"Q\",\"extensions\":{\"ignored\":true}}")
        .andExpect(status().isOk())
        .andExpect(content().json("{\"data\":{\"commentById\":null,\"commentsByUserId\":[]}}", true));
    query("{ commentsByUserId(id: 101, limit: 10) { body } }").andExpect(status().isOk()).andExpect(content().json("{\"data\":{\"commentsByUserId\":null}}", true));
  }

  @Test
  void anArgumentOutOfRangeIsAFieldErrorWithBadUserInput() throws Exception {
    query("{ commentById(id: \"01\") { body } }")
        .andExpect(status().isOk())
        .andExpect(jsonPath("$.data.commentById").value(org.hamcrest.Matchers.nullValue()))
        .andExpect(jsonPath("$.errors[0].path[0]").value("commentById"))
        .andExpect(jsonPath("$.errors[0].extensions.code").value("BAD_USER_INPUT"))
        .andExpect(jsonPath("$.errors[0].extensions.classification").value("BAD_REQUEST"));
    query("{ commentsByLimit(limit: 101) { body } }").andExpect(status().isOk()).andExpect(jsonPath("$.errors[0].extensions.code").value("BAD_USER_INPUT"));
    verifyNoInteractions(repository);
  }

  @Test
  void requestErrorsAre400sWithErrorsAndNoData() throws Exception {
    for (String body : List.of("{\"query\":\"{ commentById(id: 1) { body }\"}", "{\"query\":\"{ commentById(id: 1) { password } }\"}",
        "{\"variables\":{}}", "{\"query\":42}", "[{\"query\":\"{ __typename }\"}]", "{\"query\":\"{ __typename }\",\"variables\":\"{}\"}",
        "{\"query\":\"query Q($l: Int!) { commentsByLimit(limit: $l) { body } }\",\"variables\":{\"l\":\"x\"}}",
        "{\"query\":\"query A { __typename }\",\"operationName\":\"B\"}", "{\"query\":\"mutation { deleteComment(id: 1) }\"}", "")) {
      graphql(body).andExpect(status().isBadRequest())
          .andExpect(content().contentType(MediaType.APPLICATION_JSON))
          .andExpect(jsonPath("$", not(hasKey("data"))))
          .andExpect(jsonPath("$.errors[0].message").isString());
    }
    verifyNoInteractions(repository);
  }

  @Test
  void httpLevelFaultsAreProblems() throws Exception {
    mvc.perform(post("/graphql").contentType(MediaType.TEXT_PLAIN).content("{ __typename }")).andExpect(status().isUnsupportedMediaType())
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:unsupported-media-type"));
    graphql("{\"query\": \"{ __typename }\"").andExpect(status().isBadRequest()).andExpect(jsonPath("$.type").value("urn:fairbench:problem:malformed-body"));
    graphql("{\"query\": \"{ __typename }\"} trailing").andExpect(status().isBadRequest()).andExpect(jsonPath("$.type").value("urn:fairbench:problem:malformed-body"));
    graphql("{\"query\":\"{ __typename }\",\"pad\":\"" + "x".repeat(64 * 1024) + "\"}").andExpect(status().isPayloadTooLarge())
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:payload-too-large"));
  }

  @Test
  void theLimitsRefuseDepthSixteenAndElevenRootFieldsBeforeAnyQueryRuns() throws Exception {
    String depth15 = "{ __schema { types { fields { type { " + "ofType { ".repeat(10) + "name" + " }".repeat(10) + " } } } } }";
    String depth16 = "{ __schema { types { fields { type { " + "ofType { ".repeat(11) + "name" + " }".repeat(11) + " } } } } }";
    query(depth15).andExpect(status().isOk()).andExpect(jsonPath("$", not(hasKey("errors"))));
    query(depth16).andExpect(status().isBadRequest()).andExpect(jsonPath("$", not(hasKey("data"))))
        .andExpect(jsonPath("$.errors[0].message").value(org.hamcrest.Matchers.containsString("depth 16")));
    query("{ " + "c: commentsByLimit(limit: 100) { body } ".repeat(11) + "}").andExpect(status().isBadRequest());
    verifyNoInteractions(repository);
  }

  @Test
  void aDatabaseFailureIsAFieldErrorWithoutInternals() throws Exception {
    given(repository.commentsByLimit(3)).willThrow(new CannotGetJdbcConnectionException("timeout", new SQLTransientConnectionException("mysql - Connection is not available")));
    query("{ commentsByLimit(limit: 3) { body } }").andExpect(status().isOk())
        .andExpect(jsonPath("$.data.commentsByLimit").value(org.hamcrest.Matchers.nullValue()))
        .andExpect(jsonPath("$.errors[0].extensions.code").value("UNAVAILABLE"))
        .andExpect(jsonPath("$.errors[0].message").value(not(org.hamcrest.Matchers.containsString("mysql"))));
  }
}
