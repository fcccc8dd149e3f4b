// The forum rows as returned by REST and GraphQL. JSON property names are the column
// names (spec/openapi.yaml ForumComment, ForumUser, ForumCommentWithUser), in column order.
// Dates are the DATE column as "YYYY-MM-DD", or null; nulls are written, never omitted
// (no DefaultIgnoreCondition anywhere), as the spec requires every property.

using System.Text.Json.Serialization;

namespace Fairbench.Aspnet.Data;

/// <summary>A row of <c>comment</c>.</summary>
public sealed record Comment(
    [property: JsonPropertyName("comment_id")] int CommentId,
    [property: JsonPropertyName("thread_id")] int ThreadId,
    [property: JsonPropertyName("user_id")] int UserId,
    [property: JsonPropertyName("body")] string Body,
    [property: JsonPropertyName("datemade")] string? DateMade,
    [property: JsonPropertyName("datelastupdated")] string? DateLastUpdated);

/// <summary>A row of <c>user</c>.</summary>
public sealed record ForumUser(
    [property: JsonPropertyName("user_id")] int UserId,
    [property: JsonPropertyName("name")] string Name,
    [property: JsonPropertyName("email")] string Email,
    [property: JsonPropertyName("phone")] string Phone,
    [property: JsonPropertyName("datemade")] string? DateMade,
    [property: JsonPropertyName("datelastupdated")] string? DateLastUpdated);

/// <summary>A <c>comment</c> row with its <c>user</c> row nested as <c>user</c> (INNER JOIN on user_id).</summary>
public sealed record CommentWithUser(
    [property: JsonPropertyName("comment_id")] int CommentId,
    [property: JsonPropertyName("thread_id")] int ThreadId,
    [property: JsonPropertyName("user_id")] int UserId,
    [property: JsonPropertyName("body")] string Body,
    [property: JsonPropertyName("datemade")] string? DateMade,
    [property: JsonPropertyName("datelastupdated")] string? DateLastUpdated,
    [property: JsonPropertyName("user")] ForumUser User);
