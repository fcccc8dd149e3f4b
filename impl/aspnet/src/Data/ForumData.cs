// Data access for the forum API: the four queries (+ the user-exists check), nothing
// else; the same statements as impl/express/src/data/forum.js.
//
// Parameterised SQL only (@id, @limit), prepared on the server (PrepareAsync) as the
// Express implementation's pool.execute() does: MySqlConnector keeps a connection's prepared
// statements while it is pooled (ConnectionReset=false in Config), so each is prepared once
// per connection. Every statement has the 2 s command timeout (Config): a stalled database
// is a 503 (the exception handler), not a hang.
//
// Connections come from the one MySqlDataSource pool (MaximumPoolSize = DB_POOL_SIZE) and
// go back to it at the end of each method (await using). Queries are not cancelled when a
// client disconnects (as in the Express implementation).
//
// DATE columns arrive as DateTime (no time zone: MySqlConnector's default DateTimeKind is
// Unspecified, so nothing shifts) and are written as "yyyy-MM-dd"; NULL stays null.

using System.Globalization;
using MySqlConnector;

namespace Fairbench.Aspnet.Data;

/// <summary>The forum queries (MySQL: <see cref="ForumData"/>; the tests use an in-memory fake).</summary>
public interface IForumData
{
    /// <summary>The comment, or null.</summary>
    Task<Comment?> CommentByIdAsync(int id);

    /// <summary>The first <paramref name="limit"/> comments by comment_id.</summary>
    Task<IReadOnlyList<Comment>> CommentsAsync(int limit);

    /// <summary>The user's first comment joined with the user, or null (no such user, or no comment).</summary>
    Task<CommentWithUser?> FirstCommentByUserIdAsync(int userId);

    /// <summary>The user's first <paramref name="limit"/> comments joined with the user ([] when none).</summary>
    Task<IReadOnlyList<CommentWithUser>> CommentsByUserIdAsync(int userId, int limit);

    /// <summary>Whether a <c>user</c> row with this user_id exists.</summary>
    Task<bool> UserExistsAsync(int userId);
}

public sealed class ForumData : IForumData
{
    private const string CommentColumns = "comment_id, thread_id, user_id, body, datemade, datelastupdated";

    private const string JoinColumns =
        "c.comment_id, c.thread_id, c.user_id, c.body, c.datemade, c.datelastupdated, " +
        "u.user_id, u.name, u.email, u.phone, u.datemade, u.datelastupdated";

    private const string CommentByIdSql =
        "SELECT " + CommentColumns + " FROM comment WHERE comment_id = @id";

    private const string CommentsSql =
        "SELECT " + CommentColumns + " FROM comment ORDER BY comment_id LIMIT @limit";

    private const string FirstCommentByUserIdSql =
        "SELECT " + JoinColumns + " FROM comment c JOIN `user` u ON u.user_id = c.user_id " +
        "WHERE c.user_id = @id ORDER BY c.comment_id LIMIT 1";

    private const string CommentsByUserIdSql =
        "SELECT " + JoinColumns + " FROM comment c JOIN `user` u ON u.user_id = c.user_id " +
        "WHERE c.user_id = @id ORDER BY c.comment_id LIMIT @limit";

    private const string UserExistsSql = "SELECT 1 FROM `user` WHERE user_id = @id";

    private readonly MySqlDataSource _dataSource;

    public ForumData(MySqlDataSource dataSource)
    {
        _dataSource = dataSource;
    }

    public async Task<Comment?> CommentByIdAsync(int id)
    {
        await using var connection = await _dataSource.OpenConnectionAsync();
        await using var command = new MySqlCommand(CommentByIdSql, connection);
        command.Parameters.AddWithValue("@id", id);
        await command.PrepareAsync();
        await using var reader = await command.ExecuteReaderAsync();
        return await reader.ReadAsync() ? ReadComment(reader) : null;
    }

    public async Task<IReadOnlyList<Comment>> CommentsAsync(int limit)
    {
        await using var connection = await _dataSource.OpenConnectionAsync();
        await using var command = new MySqlCommand(CommentsSql, connection);
        command.Parameters.AddWithValue("@limit", limit);
        await command.PrepareAsync();
        await using var reader = await command.ExecuteReaderAsync();
        var comments = new List<Comment>(limit);
        while (await reader.ReadAsync())
        {
            comments.Add(ReadComment(reader));
        }

        return comments;
    }

    public async Task<CommentWithUser?> FirstCommentByUserIdAsync(int userId)
    {
        await using var connection = await _dataSource.OpenConnectionAsync();
        await using var command = new MySqlCommand(FirstCommentByUserIdSql, connection);
        command.Parameters.AddWithValue("@id", userId);
        await command.PrepareAsync();
        await using var reader = await command.ExecuteReaderAsync();
        return await reader.ReadAsync() ? ReadCommentWithUser(reader) : null;
    }

    public async Task<IReadOnlyList<CommentWithUser>> CommentsByUserIdAsync(int userId, int limit)
    {
        await using var connection = await _dataSource.OpenConnectionAsync();
        await using var command = new MySqlCommand(CommentsByUserIdSql, connection);
        command.Parameters.AddWithValue("@id", userId);
        command.Parameters.AddWithValue("@limit", limit);
        await command.PrepareAsync();
        await using var reader = await command.ExecuteReaderAsync();
        var comments = new List<CommentWithUser>(limit);
        while (await reader.ReadAsync())
        {
            comments.Add(ReadCommentWithUser(reader));
        }

        return comments;
    }

    public async Task<bool> UserExistsAsync(int userId)
    {
        await using var connection = await _dataSource.OpenConnectionAsync();
        await using var command = new MySqlCommand(UserExistsSql, connection);
        command.Parameters.AddWithValue("@id", userId);
        await command.PrepareAsync();
        return await command.ExecuteScalarAsync() is not null;
    }

    private static Comment ReadComment(MySqlDataReader reader) => new(
        reader.GetInt32(0),
        reader.GetInt32(1),
        reader.GetInt32(2),
        reader.GetString(3),
        ReadDate(reader, 4),
        ReadDate(reader, 5));

    private static CommentWithUser ReadCommentWithUser(MySqlDataReader reader) => new(
        reader.GetInt32(0),
        reader.GetInt32(1),
        reader.GetInt32(2),
        reader.GetString(3),
        ReadDate(reader, 4),
        ReadDate(reader, 5),
        new ForumUser(
            reader.GetInt32(6),
            reader.GetString(7),
            reader.GetString(8),
            reader.GetString(9),
            ReadDate(reader, 10),
            ReadDate(reader, 11)));

    private static string? ReadDate(MySqlDataReader reader, int ordinal) =>
        reader.IsDBNull(ordinal)
            ? null
            : reader.GetDateTime(ordinal).ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);
}
