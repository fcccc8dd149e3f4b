// The forum GraphQL schema, code-first with GraphQL.NET (as the paper's ASP.NET app did:
// ObjectGraphType classes and a query type). It must equal spec/schema.graphql in types,
// fields, arguments and nullability (the conformance suite compares by introspection):
//
//   type Query {
//     commentById(id: ID!): Comment
//     commentsByLimit(limit: Int!): [Comment!]
//     commentByUserId(id: ID!): CommentWithUser
//     commentsByUserId(id: ID!, limit: Int!): [CommentWithUser!]
//   }
//   type Comment { comment_id: Int! thread_id: Int! user_id: Int! body: String! datemade: String datelastupdated: String }
//   type User { user_id: Int! name: String! email: String! phone: String! datemade: String datelastupdated: String }
//   type CommentWithUser { <the Comment fields> user: User! }
//
// Names are used verbatim: the schema's NameConverter is DefaultNameConverter (GraphQL.NET's
// default, CamelCaseNameConverter, would only lower-case a first letter, but verbatim is the
// rule here). Like the Express implementation, no descriptions are served.
//
// Arguments follow the REST rules (Params): an id is an ID given as a string or an integer
// literal/variable, checked as 1..2147483647 written without sign or leading zeros; a limit
// is 1..100. A violation is a field error with extensions.code BAD_USER_INPUT (the field is
// null, HTTP 200). A row that does not exist is null without an error.

using Fairbench.Aspnet.Data;
using GraphQL;
using GraphQL.Conversion;
using GraphQL.Types;

namespace Fairbench.Aspnet.GraphQLApi;

public sealed class ForumSchema : Schema
{
    public ForumSchema(IForumData data)
    {
        NameConverter = DefaultNameConverter.Instance;
        Query = new ForumQueryType(data);
    }
}

public sealed class ForumQueryType : ObjectGraphType
{
    public const string BadUserInput = "BAD_USER_INPUT";

    public ForumQueryType(IForumData data)
    {
        Name = "Query";

        Field<CommentType, Comment>("commentById")
            .Argument<NonNullGraphType<IdGraphType>>("id")
            .ResolveAsync(async context => await data.CommentByIdAsync(RequireId(context)));

        Field<ListGraphType<NonNullGraphType<CommentType>>, IReadOnlyList<Comment>>("commentsByLimit")
            .Argument<NonNullGraphType<IntGraphType>>("limit")
            .ResolveAsync(async context => await data.CommentsAsync(RequireLimit(context)));

        Field<CommentWithUserType, CommentWithUser>("commentByUserId")
            .Argument<NonNullGraphType<IdGraphType>>("id")
            .ResolveAsync(async context => await data.FirstCommentByUserIdAsync(RequireId(context)));

        Field<ListGraphType<NonNullGraphType<CommentWithUserType>>, IReadOnlyList<CommentWithUser>>("commentsByUserId")
            .Argument<NonNullGraphType<IdGraphType>>("id")
            .Argument<NonNullGraphType<IntGraphType>>("limit")
            .ResolveAsync(async context =>
            {
                var userId = RequireId(context);
                var limit = RequireLimit(context);
                var comments = await data.CommentsByUserIdAsync(userId, limit);

                // [] for a user without comments, null for a user that does not exist.
                if (comments.Count == 0 && !await data.UserExistsAsync(userId))
                {
                    return null;
                }

                return comments;
            });
    }

    private static int RequireId(IResolveFieldContext context)
    {
        if (!Params.TryParseId(Params.TextOf(context.GetArgument<object?>("id")), out var id))
        {
            throw new ExecutionError($"Argument \"id\" must be {Params.IdRule}.") { Code = BadUserInput };
        }

        return id;
    }

    private static int RequireLimit(IResolveFieldContext context)
    {
        if (!Params.TryParseLimit(Params.TextOf(context.GetArgument<object?>("limit")), out var limit))
        {
            throw new ExecutionError($"Argument \"limit\" must be {Params.LimitRule}.") { Code = BadUserInput };
        }

        return limit;
    }
}

public sealed class CommentType : ObjectGraphType<Comment>
{
    public CommentType()
    {
        Name = "Comment";
        Field<NonNullGraphType<IntGraphType>, int>("comment_id").Resolve(context => context.Source.CommentId);
        Field<NonNullGraphType<IntGraphType>, int>("thread_id").Resolve(context => context.Source.ThreadId);
        Field<NonNullGraphType<IntGraphType>, int>("user_id").Resolve(context => context.Source.UserId);
        Field<NonNullGraphType<StringGraphType>, string>("body").Resolve(context => context.Source.Body);
        Field<StringGraphType, string>("datemade").Resolve(context => context.Source.DateMade);
        Field<StringGraphType, string>("datelastupdated").Resolve(context => context.Source.DateLastUpdated);
    }
}

public sealed class UserType : ObjectGraphType<ForumUser>
{
    public UserType()
    {
        Name = "User";
        Field<NonNullGraphType<IntGraphType>, int>("user_id").Resolve(context => context.Source.UserId);
        Field<NonNullGraphType<StringGraphType>, string>("name").Resolve(context => context.Source.Name);
        Field<NonNullGraphType<StringGraphType>, string>("email").Resolve(context => context.Source.Email);
        Field<NonNullGraphType<StringGraphType>, string>("phone").Resolve(context => context.Source.Phone);
        Field<StringGraphType, string>("datemade").Resolve(context => context.Source.DateMade);
        Field<StringGraphType, string>("datelastupdated").Resolve(context => context.Source.DateLastUpdated);
    }
}

public sealed class CommentWithUserType : ObjectGraphType<CommentWithUser>
{
    public CommentWithUserType()
    {
        Name = "CommentWithUser";
        Field<NonNullGraphType<IntGraphType>, int>("comment_id").Resolve(context => context.Source.CommentId);
        Field<NonNullGraphType<IntGraphType>, int>("thread_id").Resolve(context => context.Source.ThreadId);
        Field<NonNullGraphType<IntGraphType>, int>("user_id").Resolve(context => context.Source.UserId);
        Field<NonNullGraphType<StringGraphType>, string>("body").Resolve(context => context.Source.Body);
        Field<StringGraphType, string>("datemade").Resolve(context => context.Source.DateMade);
        Field<StringGraphType, string>("datelastupdated").Resolve(context => context.Source.DateLastUpdated);
        Field<NonNullGraphType<UserType>, ForumUser>("user").Resolve(context => context.Source.User);
    }
}
