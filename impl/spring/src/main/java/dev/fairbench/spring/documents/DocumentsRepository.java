package dev.fairbench.spring.documents;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndReplaceOptions;
import com.mongodb.client.model.ReturnDocument;
import java.util.Optional;
import org.bson.Document;
import org.bson.types.ObjectId;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Repository;

/**
 * The four operations on the `documents` collection through the MongoDB Java driver; the
 * harness creates and seeds the collection. Stored documents are {_id, kind, payload}, as
 * in the other implementations.
 */
@Repository
@ConditionalOnProperty(name = "MONGO_URL")
public class DocumentsRepository {
  /** A stored document as the API answers it. */
  public record Stored(String id, String kind, Object payload) {
    static Stored of(Document document) {
      return new Stored(document.getObjectId("_id").toHexString(), document.getString("kind"), document.get("payload"));
    }
  }

  private final MongoCollection<Document> documents;

  public DocumentsRepository(MongoDatabase database) {
    this.documents = database.getCollection("documents");
  }

  private static Document body(DocumentsInput input) {
    return new Document("kind", input.kind()).append("payload", input.payload());
  }

  public Stored create(DocumentsInput input) {
    Document document = new Document("_id", new ObjectId()).append("kind", input.kind()).append("payload", input.payload());
    documents.insertOne(document);
    return Stored.of(document);
  }

  public Optional<Stored> find(ObjectId id) {
    return Optional.ofNullable(documents.find(Filters.eq("_id", id)).first()).map(Stored::of);
  }

  /** Replaces kind and payload as a whole (no merge, no upsert); empty when there is no such document. */
  public Optional<Stored> replace(ObjectId id, DocumentsInput input) {
    Document after = documents.findOneAndReplace(Filters.eq("_id", id), body(input), new FindOneAndReplaceOptions().returnDocument(ReturnDocument.AFTER));
    return Optional.ofNullable(after).map(Stored::of);
  }

  /** Whether a document was deleted. */
  public boolean delete(ObjectId id) {
    return documents.deleteOne(Filters.eq("_id", id)).getDeletedCount() == 1;
  }
}
