// REST handlers: parameter validation -> data access -> result. Route values are bound as
// strings (an int binding would accept "+1"/"01" and answer bad input with the framework's
// own 400 body) and checked with the shared rules in Params.
//
// An exception from the data layer propagates to the exception handler: 503 when the
// database did not answer, else logged once and a 500 problem.

using Fairbench.Aspnet.Data;

namespace Fairbench.Aspnet.Handlers;

public sealed class ForumHandlers
{
    private readonly IForumData _data;

    public ForumHandlers(IForumData data)
    {
        _data = data;
    }

    // GET /comment/{id}
    public async Task<IResult> CommentByIdAsync(string id)
    {
        if (!Params.TryParseId(id, out var commentId))
        {
            return InvalidParameter("id", Params.IdRule);
        }

        var comment = await _data.CommentByIdAsync(commentId);
        if (comment is null)
        {
            return Problems.Result(Problems.NotFound, $"No comment with comment_id {commentId}.");
        }

        return TypedResults.Ok(comment);
    }

    // GET /comments/{limit}
    public async Task<IResult> CommentsAsync(string limit)
    {
        if (!Params.TryParseLimit(limit, out var count))
        {
            return InvalidParameter("limit", Params.LimitRule);
        }

        return TypedResults.Ok(await _data.CommentsAsync(count));
    }

    // GET /user/{id}/comment
    public async Task<IResult> FirstCommentByUserIdAsync(string id)
    {
        if (!Params.TryParseId(id, out var userId))
        {
            return InvalidParameter("id", Params.IdRule);
        }

        var comment = await _data.FirstCommentByUserIdAsync(userId);
        if (comment is null)
        {
            return Problems.Result(Problems.NotFound, $"No user with user_id {userId}, or the user has no comment.");
        }

        return TypedResults.Ok(comment);
    }

    // GET /user/{id}/comments/{limit}
    public async Task<IResult> CommentsByUserIdAsync(string id, string limit)
    {
        if (!Params.TryParseId(id, out var userId))
        {
            return InvalidParameter("id", Params.IdRule);
        }

        if (!Params.TryParseLimit(limit, out var count))
        {
            return InvalidParameter("limit", Params.LimitRule);
        }

        var comments = await _data.CommentsByUserIdAsync(userId, count);

        // Only an empty join needs the existence check: [] for a user without comments,
        // 404 for a user that does not exist.
        if (comments.Count == 0 && !await _data.UserExistsAsync(userId))
        {
            return Problems.Result(Problems.NotFound, $"No user with user_id {userId}.");
        }

        return TypedResults.Ok(comments);
    }

    private static IResult InvalidParameter(string name, string rule) =>
        Problems.Result(Problems.InvalidParameter, $"Path parameter '{name}' must be {rule}.");
}
