package dev.fairbench.spring.documents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.mongodb.MongoTimeoutException;
import dev.fairbench.spring.config.JsonConfig;
import dev.fairbench.spring.security.SecurityConfig;
import dev.fairbench.spring.web.JsonBodies;
import dev.fairbench.spring.web.ProblemHandler;
import dev.fairbench.spring.web.ServerTimingFilter;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/** The documents web layer over a mocked repository: the order of faults, the shapes, 201 + Location, 204, 503. */
@WebMvcTest(DocumentsController.class)
@Import({SecurityConfig.class, JsonConfig.class, JsonBodies.class, ProblemHandler.class, ServerTimingFilter.class})
@TestPropertySource(properties = {"JWT_SECRET=unit-test-secret-of-at-least-32-bytes!", "PORT=0", "MONGO_URL=mongodb://unused/documents"})
class DocumentsControllerTest {
  private static final String ID = "6650f1c2a1b2c3d4e5f60718";
  private static final String TEXT = "{\"kind\":\"text\",\"payload\":\"" + "ab\\\"c".repeat(250) + "\"}"; // 1000 characters, quotes escaped

  @Autowired MockMvc mvc;
  @MockitoBean DocumentsRepository repository;

  private static String record(int attributes, String name) {
    StringBuilder json = new StringBuilder("{\"kind\":\"record\",\"payload\":{");
    for (int i = 0; i < attributes; i++) json.append(i == 0 ? "" : ",").append('"').append(i == 0 ? name : "a" + i).append("\":\"").append("x".repeat(100)).append('"');
    return json.append("}}").toString();
  }

  @Test
  void aCreatedDocumentIs201WithLocationAndIsStoredAsSent() throws Exception {
    ArgumentCaptor<DocumentsInput> input = ArgumentCaptor.forClass(DocumentsInput.class);
    given(repository.create(input.capture())).willAnswer(call -> new DocumentsRepository.Stored(ID, "text", call.getArgument(0, DocumentsInput.class).payload()));
    mvc.perform(post("/documents").contentType(MediaType.APPLICATION_JSON).content(TEXT))
        .andExpect(status().isCreated())
        .andExpect(header().string("Location", "/documents/" + ID))
        .andExpect(jsonPath("$.payload").value("ab\"c".repeat(250)));
    assertThat(input.getValue().payload()).isEqualTo("ab\"c".repeat(250));
  }

  @Test
  void recordsKeepTheirAttributesInOrderAndRefuseBadNames() throws Exception {
    assertThat(DocumentsInput.of(new com.fasterxml.jackson.databind.ObjectMapper().readTree(record(100, "first"))).payload())
        .isInstanceOfSatisfying(Document.class, d -> assertThat(d.keySet().iterator().next()).isEqualTo("first"));
    for (String body : List.of(record(99, "a0"), record(101, "a0"), record(100, "$where"), record(100, "a.b"), record(100, "_id"), record(100, "x".repeat(33)))) {
      mvc.perform(post("/documents").contentType(MediaType.APPLICATION_JSON).content(body)).andExpect(jsonPath("$.type").value("urn:fairbench:problem:invalid-body"));
    }
    verifyNoInteractions(repository);
  }

  @Test
  void faultsComeInTheSpecsOrder() throws Exception {
    // body bytes before the id, the id before the shape
    mvc.perform(put("/documents/abc").contentType(MediaType.TEXT_PLAIN).content("{}")).andExpect(status().isUnsupportedMediaType());
    mvc.perform(put("/documents/abc").contentType(MediaType.APPLICATION_JSON).content("{")).andExpect(jsonPath("$.type").value("urn:fairbench:problem:malformed-body"));
    mvc.perform(put("/documents/abc").contentType(MediaType.APPLICATION_JSON).content("{}")).andExpect(jsonPath("$.type").value("urn:fairbench:problem:invalid-parameter"));
    mvc.perform(put("/documents/" + ID).contentType(MediaType.APPLICATION_JSON).content("{}")).andExpect(jsonPath("$.type").value("urn:fairbench:problem:invalid-body"));
    mvc.perform(get("/documents/" + ID.toUpperCase())).andExpect(status().isBadRequest());
    mvc.perform(get("/documents/aaaaaaaaaaaa")).andExpect(status().isBadRequest());
    mvc.perform(post("/documents").contentType(MediaType.APPLICATION_JSON).content("{\"kind\":\"text\",\"payload\":\"" + "x".repeat(524288) + "\"}"))
        .andExpect(status().isPayloadTooLarge());
    verifyNoInteractions(repository);
  }

  @Test
  void unknownIdsAre404AndDeletesAre204() throws Exception {
    given(repository.find(any())).willReturn(Optional.empty());
    given(repository.delete(any())).willReturn(true);
    mvc.perform(get("/documents/" + ID)).andExpect(status().isNotFound()).andExpect(jsonPath("$.type").value("urn:fairbench:problem:not-found"));
    mvc.perform(delete("/documents/" + ID)).andExpect(status().isNoContent());
  }

  @Test
  void aDatabaseThatDoesNotAnswerIsA503() throws Exception {
    given(repository.find(any())).willThrow(new MongoTimeoutException("no server"));
    mvc.perform(get("/documents/" + ID)).andExpect(status().isServiceUnavailable()).andExpect(header().string("Retry-After", "1"));
  }

  @Test
  void tablesNeedFiftyAttributesPerRowAndIdIsNoInputMember() throws Exception {
    String row = "{}"; // a row without its 50 attributes
    mvc.perform(post("/documents").contentType(MediaType.APPLICATION_JSON).content("{\"kind\":\"table\",\"payload\":[" + String.join(",", Collections.nCopies(50, row)) + "]}"))
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:invalid-body"));
    mvc.perform(post("/documents").contentType(MediaType.APPLICATION_JSON).content("{\"kind\":\"text\",\"payload\":\"x\",\"id\":\"" + ID + "\"}"))
        .andExpect(jsonPath("$.type").value("urn:fairbench:problem:invalid-body"));
    verifyNoInteractions(repository);
  }
}
