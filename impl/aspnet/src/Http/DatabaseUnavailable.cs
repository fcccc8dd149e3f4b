// Which exceptions mean the database did not answer (in time) — a 503 unavailable problem,
// not a 500: a driver's timeout (statement, connect, pool checkout, server selection), a
// lost or refused connection, a server shutting down. The drivers' waits are bounded in
// Config (MySqlConnector, Npgsql) and MongoSetup (MongoDB.Driver).

using System.Net.Sockets;
using MongoDB.Driver;
using MySqlConnector;
using Npgsql;

namespace Fairbench.Aspnet.Http;

public static class DatabaseUnavailable
{
    // MongoDB's ShutdownInProgress, InterruptedAtShutdown, InterruptedDueToReplStateChange.
    private static readonly HashSet<int> MongoShutdownCodes = [91, 11600, 11602];

    public static bool Is(Exception? exception)
    {
        for (var ex = exception; ex is not null; ex = ex.InnerException)
        {
            switch (ex)
            {
                case TimeoutException or SocketException or IOException or EndOfStreamException:
                    return true;
                case MySqlException mysql when mysql.IsTransient || IsClientSide(mysql.ErrorCode):
                    return true;
                case PostgresException postgres when postgres.SqlState is "57014" or "57P01" or "57P02" or "57P03" || postgres.SqlState.StartsWith("08", StringComparison.Ordinal):
                    return true;
                case NpgsqlException npgsql when npgsql is not PostgresException && (npgsql.IsTransient || npgsql.InnerException is null):
                    return true;
                // A paused pool: the monitor found the server unreachable and cleared the pool.
                case MongoConnectionException or MongoConnectionPoolPausedException or MongoExecutionTimeoutException or MongoNodeIsRecoveringException or MongoNotPrimaryException:
                    return true;
                case MongoCommandException command when MongoShutdownCodes.Contains(command.Code) || command.Message.Contains("context canceled", StringComparison.Ordinal):
                    return true;
                case MongoClientException client when client.Message.Contains("closed", StringComparison.OrdinalIgnoreCase) || client.Message.Contains("wait queue", StringComparison.OrdinalIgnoreCase):
                    return true;
            }
        }

        return false;
    }

    // The connector's own errors: the server could not be reached, a timeout, a broken connection.
    private static bool IsClientSide(MySqlErrorCode code) => code is
        MySqlErrorCode.UnableToConnectToHost or
        MySqlErrorCode.CommandTimeoutExpired or
        MySqlErrorCode.QueryInterrupted or
        MySqlErrorCode.ConnectionCountError or
        MySqlErrorCode.ServerShutdown or
        MySqlErrorCode.UnknownError;
}
