using Fairbench.Aspnet.Data;

namespace Fairbench.Aspnet.Tests;

/// <summary>
/// In-memory rows: user 1 has comments 1, 2 and 4; user 2 exists without comments; comment 3
/// belongs to user 99, who does not exist (no foreign keys, as in the paper's schema).
/// </summary>
public sealed class FakeForumData : IForumData
{
    public static readonly ForumUser[] Users =
    {
        new(1, "Kody.Wiza", "Lexi_Lang@hotmail.com", "1-555-312-6049", "2020-06-14", "2022-02-01"),
        new(2, "No.Comments", "none@example.com", "1-555-000-0000", null, null),
    };

    public static readonly Comment[] Comments =
    {
        new(1, 1, 1, "voluptas et quia", "2020-11-03", null),
        new(2, 1, 1, "second", "2020-11-04", "2021-01-01"),
        new(3, 2, 99, "orphan", null, null),
        new(4, 3, 1, "fourth", null, null),
    };

    public Task<Comment?> CommentByIdAsync(int id) =>
        Task.FromResult(Comments.FirstOrDefault(c => c.CommentId == id));

    public Task<IReadOnlyList<Comment>> CommentsAsync(int limit) =>
        Task.FromResult<IReadOnlyList<Comment>>(Comments.OrderBy(c => c.CommentId).Take(limit).ToList());

    public async Task<CommentWithUser?> FirstCommentByUserIdAsync(int userId) =>
        (await CommentsByUserIdAsync(userId, 1)).FirstOrDefault();

    public Task<IReadOnlyList<CommentWithUser>> CommentsByUserIdAsync(int userId, int limit)
    {
        var rows =
            from c in Comments
            join u in Users on c.UserId equals u.UserId
            where c.UserId == userId
            orderby c.CommentId
            select new CommentWithUser(c.CommentId, c.ThreadId, c.UserId, c.Body, c.DateMade, c.DateLastUpdated, u);
        return Task.FromResult<IReadOnlyList<CommentWithUser>>(rows.Take(limit).ToList());
    }

    public Task<bool> UserExistsAsync(int userId) =>
        Task.FromResult(Users.Any(u => u.UserId == userId));
}
