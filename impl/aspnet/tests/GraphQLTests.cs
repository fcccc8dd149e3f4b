using System.Text.Json;
using Xunit;

namespace Fairbench.Aspnet.Tests;

public class GraphQLTests : IClassFixture<TestApp>
{
    // graphql-js 16's getIntrospectionQuery({ descriptions: false }), the query the conformance
    // suite sends to compare the served schema with spec/schema.graphql; its depth is exactly 15.
    private const string IntrospectionQuery = """
        query IntrospectionQuery { __schema { queryType { name kind } mutationType { name kind } subscriptionType { name kind } types { ...FullType } directives { name locations args { ...InputValue } } } } fragment FullType on __Type { kind name fields(includeDeprecated: true) { name args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason } inputFields { ...InputValue } interfaces { ...TypeRef } enumValues(includeDeprecated: true) { name isDeprecated deprecationReason } possibleTypes { ...TypeRef } } fragment InputValue on __InputValue { name type { ...TypeRef } defaultValue } fragment TypeRef on __Type { kind name ofType { name kind ofType { name kind ofType { name kind ofType { name kind ofType { name kind ofType { name kind ofType { name kind ofType { name kind ofType { name kind } } } } } } } } } }
        """;

    private readonly TestApp _app;

    public GraphQLTests(TestApp app)
    {
        _app = app;
    }

    private static void AssertExecuted(Reply reply)
    {
        Assert.Equal(200, reply.Status);
        Assert.Equal("application/json", reply.MediaType);
        Assert.True(reply.Body.TryGetProperty("data", out var data), reply.Text);
        Assert.Equal(JsonValueKind.Object, data.ValueKind);
        Assert.False(reply.Body.TryGetProperty("errors", out _), reply.Text);
    }

    private static void AssertRequestError(Reply reply)
    {
        Assert.Equal(400, reply.Status);
        Assert.Equal("application/json", reply.MediaType);
        Assert.False(reply.Body.TryGetProperty("data", out _), reply.Text);
        var errors = reply.Body.GetProperty("errors");
        Assert.True(errors.GetArrayLength() > 0);
        foreach (var error in errors.EnumerateArray())
        {
            Assert.Equal(JsonValueKind.String, error.GetProperty("message").ValueKind);
        }
    }

    private static void AssertFieldError(Reply reply, string field)
    {
        Assert.Equal(200, reply.Status);
        Assert.Equal(JsonValueKind.Null, reply.Body.GetProperty("data").GetProperty(field).ValueKind);
        var error = reply.Body.GetProperty("errors").EnumerateArray()
            .Single(e => e.TryGetProperty("path", out var path) && path.GetArrayLength() == 1 && path[0].GetString() == field);
        Assert.Equal("BAD_USER_INPUT", error.GetProperty("extensions").GetProperty("code").GetString());
        foreach (var member in error.EnumerateObject())
        {
            Assert.Contains(member.Name, new[] { "message", "locations", "path", "extensions" });
        }
    }

    [Fact]
    public async Task Comment_by_id()
    {
        var reply = await _app.GraphQLAsync("{ commentById(id: 1) { comment_id thread_id user_id body datemade datelastupdated } }");
        AssertExecuted(reply);
        var comment = reply.Body.GetProperty("data").GetProperty("commentById");
        Assert.Equal(1, comment.GetProperty("comment_id").GetInt32());
        Assert.Equal("2020-11-03", comment.GetProperty("datemade").GetString());
        Assert.Equal(JsonValueKind.Null, comment.GetProperty("datelastupdated").ValueKind);
    }

    [Theory]
    [InlineData("{\"id\": \"2\"}")]
    [InlineData("{\"id\": 2}")]
    public async Task Ids_as_string_or_int_variables(string variables)
    {
        var json = "{\"query\": \"query Q($id: ID!) { commentById(id: $id) { comment_id } }\", \"variables\": " + variables + "}";
        var reply = await _app.PostGraphQLAsync(json);
        AssertExecuted(reply);
        Assert.Equal(2, reply.Body.GetProperty("data").GetProperty("commentById").GetProperty("comment_id").GetInt32());
    }

    [Fact]
    public async Task Missing_rows_are_null_without_errors()
    {
        var reply = await _app.GraphQLAsync("{ commentById(id: \"999999\") { body } commentByUserId(id: 2) { body } commentsByUserId(id: 99, limit: 5) { body } }");
        AssertExecuted(reply);
        var data = reply.Body.GetProperty("data");
        Assert.Equal(JsonValueKind.Null, data.GetProperty("commentById").ValueKind);
        Assert.Equal(JsonValueKind.Null, data.GetProperty("commentByUserId").ValueKind);
        Assert.Equal(JsonValueKind.Null, data.GetProperty("commentsByUserId").ValueKind);
    }

    [Fact]
    public async Task A_user_without_comments_has_an_empty_list()
    {
        var reply = await _app.GraphQLAsync("{ commentsByUserId(id: 2, limit: 5) { body } }");
        AssertExecuted(reply);
        Assert.Equal(0, reply.Body.GetProperty("data").GetProperty("commentsByUserId").GetArrayLength());
    }

    [Fact]
    public async Task Comments_with_users_by_limit()
    {
        var reply = await _app.GraphQLAsync("{ commentsByUserId(id: 1, limit: 2) { comment_id user { user_id name } } commentsByLimit(limit: 3) { comment_id } }");
        AssertExecuted(reply);
        var data = reply.Body.GetProperty("data");
        Assert.Equal(new[] { 1, 2 }, data.GetProperty("commentsByUserId").EnumerateArray().Select(c => c.GetProperty("comment_id").GetInt32()).ToArray());
        Assert.Equal("Kody.Wiza", data.GetProperty("commentsByUserId")[0].GetProperty("user").GetProperty("name").GetString());
        Assert.Equal(new[] { 1, 2, 3 }, data.GetProperty("commentsByLimit").EnumerateArray().Select(c => c.GetProperty("comment_id").GetInt32()).ToArray());
    }

    [Theory]
    [InlineData("{ commentById(id: \"abc\") { body } }", "commentById")]
    [InlineData("{ commentById(id: \"0\") { body } }", "commentById")]
    [InlineData("{ commentById(id: 0) { body } }", "commentById")]
    [InlineData("{ commentById(id: -1) { body } }", "commentById")]
    [InlineData("{ commentById(id: \"2147483648\") { body } }", "commentById")]
    [InlineData("{ commentById(id: \"1.5\") { body } }", "commentById")]
    [InlineData("{ commentById(id: \"01\") { body } }", "commentById")]
    [InlineData("{ commentById(id: \"1 OR 1=1\") { body } }", "commentById")]
    [InlineData("{ commentsByLimit(limit: 0) { body } }", "commentsByLimit")]
    [InlineData("{ commentsByLimit(limit: -1) { body } }", "commentsByLimit")]
    [InlineData("{ commentsByLimit(limit: 101) { body } }", "commentsByLimit")]
    [InlineData("{ commentsByLimit(limit: 2147483647) { body } }", "commentsByLimit")]
    [InlineData("{ commentsByUserId(id: \"x\", limit: 5) { body } }", "commentsByUserId")]
    [InlineData("{ commentsByUserId(id: 1, limit: 0) { body } }", "commentsByUserId")]
    [InlineData("{ commentsByUserId(id: 1, limit: 101) { body } }", "commentsByUserId")]
    [InlineData("{ commentsByUserId(id: \"0\", limit: 5) { body } }", "commentsByUserId")]
    [InlineData("{ commentByUserId(id: \"x\") { body } }", "commentByUserId")]
    [InlineData("{ commentByUserId(id: 0) { body } }", "commentByUserId")]
    [InlineData("{ commentByUserId(id: \"2147483648\") { body } }", "commentByUserId")]
    public async Task Arguments_out_of_range_are_BAD_USER_INPUT_field_errors(string query, string field)
    {
        AssertFieldError(await _app.GraphQLAsync(query), field);
    }

    [Fact]
    public async Task A_field_error_leaves_the_other_root_fields()
    {
        var reply = await _app.GraphQLAsync("{ bad: commentsByLimit(limit: 0) { body } good: commentById(id: 1) { body } }");
        AssertFieldError(reply, "bad");
        Assert.Equal("voluptas et quia", reply.Body.GetProperty("data").GetProperty("good").GetProperty("body").GetString());
    }

    [Theory]
    [InlineData("{\"variables\": {}}")]
    [InlineData("{\"query\": 42}")]
    [InlineData("{\"query\": null}")]
    [InlineData("[]")]
    [InlineData("\"{ commentById(id: 1) { body } }\"")]
    [InlineData("{\"query\": \"{ commentById(id: 1) { body } }\", \"variables\": \"x\"}")]
    [InlineData("{\"query\": \"{ commentById(id: 1) { body } }\", \"operationName\": 5}")]
    [InlineData("")]
    public async Task Bodies_without_a_request_are_request_errors(string json)
    {
        AssertRequestError(await _app.PostGraphQLAsync(json));
    }

    [Theory]
    [InlineData("{ commentById(id: 1) { body }")]
    [InlineData("{ commentById(id: 1) { body password } }")]
    [InlineData("{ users { name } }")]
    [InlineData("{ commentsByLimit(limit: 1, offset: 5) { body } }")]
    [InlineData("{ commentsByLimit(limit: \"ten\") { body } }")]
    [InlineData("{ commentsByLimit(limit: 2147483648) { body } }")]
    [InlineData("{ commentById(id: 1.5) { body } }")]
    [InlineData("{ commentsByUserId(id: 1) { body } }")]
    [InlineData("{ commentById(id: 1) }")]
    [InlineData("query A { commentById(id: 1) { body } } query B { commentById(id: 2) { body } }")]
    [InlineData("mutation { deleteComment(id: 1) }")]
    [InlineData("subscription { commentById(id: 1) { body } }")]
    [InlineData("{ ...Missing }")]
    public async Task Invalid_documents_are_request_errors(string query)
    {
        AssertRequestError(await _app.GraphQLAsync(query));
    }

    [Fact]
    public async Task Variables_that_do_not_coerce_are_request_errors()
    {
        AssertRequestError(await _app.GraphQLAsync("query Q($limit: Int!) { commentsByLimit(limit: $limit) { body } }", new Dictionary<string, object?> { ["limit"] = "x" }));
        AssertRequestError(await _app.GraphQLAsync("query Q($limit: Int!) { commentsByLimit(limit: $limit) { body } }"));
        AssertRequestError(await _app.GraphQLAsync("query Q($id: ID!) { commentById(id: $id) { body } }", new Dictionary<string, object?> { ["id"] = 1.5 }));
    }

    [Fact]
    public async Task An_unknown_operation_name_is_a_request_error()
    {
        AssertRequestError(await _app.GraphQLAsync("query A { commentById(id: 1) { body } }", operationName: "B"));
    }

    [Fact]
    public async Task A_named_operation_among_several_runs()
    {
        var reply = await _app.GraphQLAsync("query A { commentById(id: 1) { body } } query B { commentById(id: 2) { body } }", operationName: "B");
        AssertExecuted(reply);
        Assert.Equal("second", reply.Body.GetProperty("data").GetProperty("commentById").GetProperty("body").GetString());
    }

    private static string RootFields(int count, string field = "commentsByLimit(limit: 1)") =>
        string.Join(" ", Enumerable.Range(1, count).Select(i => $"a{i}: {field} {{ body }}"));

    [Fact]
    public async Task Ten_root_fields_are_allowed_eleven_are_not()
    {
        AssertExecuted(await _app.GraphQLAsync("{ " + RootFields(10) + " }"));
        AssertRequestError(await _app.GraphQLAsync("{ " + RootFields(11) + " }"));
        AssertRequestError(await _app.GraphQLAsync("{ ...F } fragment F on Query { " + RootFields(11, "commentById(id: 1)") + " }"));
        AssertRequestError(await _app.GraphQLAsync("{ " + RootFields(6) + " ... on Query { " + RootFields(5, "commentById(id: 1)").Replace("a", "b") + " } }"));
    }

    private static string OfTypeChain(int count) =>
        string.Concat(Enumerable.Repeat("ofType { ", count)) + "name" + string.Concat(Enumerable.Repeat(" }", count));

    [Fact]
    public async Task Depth_15_is_allowed_16_is_not()
    {
        // __schema(1) types(2) fields(3) type(4) ofType x10 (5..14) name(15)
        AssertExecuted(await _app.GraphQLAsync("{ __schema { types { fields { type { " + OfTypeChain(10) + " } } } } }"));
        AssertRequestError(await _app.GraphQLAsync("{ __schema { types { fields { type { " + OfTypeChain(11) + " } } } } }"));
        AssertRequestError(await _app.GraphQLAsync(
            "{ __schema { types { ...A } } } fragment A on __Type { fields { type { ...B } } } fragment B on __Type { " + OfTypeChain(11) + " }"));
    }

    [Fact]
    public async Task The_standard_introspection_query_runs()
    {
        AssertExecuted(await _app.GraphQLAsync(IntrospectionQuery));
    }

    [Fact]
    public async Task The_served_schema_is_the_spec_schema()
    {
        var reply = await _app.GraphQLAsync(IntrospectionQuery);
        AssertExecuted(reply);
        var schema = reply.Body.GetProperty("data").GetProperty("__schema");
        Assert.Equal("Query", schema.GetProperty("queryType").GetProperty("name").GetString());
        Assert.Equal(JsonValueKind.Null, schema.GetProperty("mutationType").ValueKind);
        Assert.Equal(JsonValueKind.Null, schema.GetProperty("subscriptionType").ValueKind);

        var types = schema.GetProperty("types").EnumerateArray()
            .Where(t => !t.GetProperty("name").GetString()!.StartsWith("__", StringComparison.Ordinal))
            .ToDictionary(t => t.GetProperty("name").GetString()!, t => t);
        Assert.Equal(
            new[] { "Boolean", "Comment", "CommentWithUser", "ID", "Int", "Query", "String", "User" },
            types.Keys.OrderBy(k => k, StringComparer.Ordinal).ToArray());

        var commentFields = "comment_id: Int!, thread_id: Int!, user_id: Int!, body: String!, datemade: String, datelastupdated: String";
        Assert.Equal(
            "commentById(id: ID!): Comment, commentsByLimit(limit: Int!): [Comment!], commentByUserId(id: ID!): CommentWithUser, commentsByUserId(id: ID!, limit: Int!): [CommentWithUser!]",
            Fields(types["Query"]));
        Assert.Equal(commentFields, Fields(types["Comment"]));
        Assert.Equal(commentFields + ", user: User!", Fields(types["CommentWithUser"]));
        Assert.Equal("user_id: Int!, name: String!, email: String!, phone: String!, datemade: String, datelastupdated: String", Fields(types["User"]));
    }

    // "name(arg: Type, ...): Type" for each field, in the served order.
    private static string Fields(JsonElement type) =>
        string.Join(", ", type.GetProperty("fields").EnumerateArray().Select(field =>
        {
            var args = field.GetProperty("args").EnumerateArray()
                .Select(arg => $"{arg.GetProperty("name").GetString()}: {TypeRef(arg.GetProperty("type"))}")
                .ToArray();
            var signature = args.Length == 0 ? string.Empty : "(" + string.Join(", ", args) + ")";
            return $"{field.GetProperty("name").GetString()}{signature}: {TypeRef(field.GetProperty("type"))}";
        }));

    private static string TypeRef(JsonElement type) => type.GetProperty("kind").GetString() switch
    {
        "NON_NULL" => TypeRef(type.GetProperty("ofType")) + "!",
        "LIST" => "[" + TypeRef(type.GetProperty("ofType")) + "]",
        _ => type.GetProperty("name").GetString()!,
    };

    [Fact]
    public async Task HTTP_level_errors_are_problems()
    {
        RestTests.AssertProblem(await _app.PostGraphQLAsync("{\"query\": \"{ commentById(id: 1) { body } }\"", "application/json"), 400, "malformed-body");
        RestTests.AssertProblem(await _app.PostGraphQLAsync("{ commentById(id: 1) { body } }", "text/plain"), 415, "unsupported-media-type");
        var oversized = "{\"query\": \"{ commentById(id: 1) { body } }\", \"variables\": {\"pad\": \"" + new string('x', 70 * 1024) + "\"}}";
        RestTests.AssertProblem(await _app.PostGraphQLAsync(oversized), 413, "payload-too-large");
    }

    [Fact]
    public async Task Json_with_parameters_is_json()
    {
        AssertExecuted(await _app.PostGraphQLAsync("{\"query\": \"{ commentById(id: 1) { body } }\"}", "Application/JSON"));
    }
}
