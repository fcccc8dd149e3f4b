// bcrypt off the request thread pool, on a few threads of its own.
//
// A bcrypt hash or check at cost 10 is tens of milliseconds of CPU. Run on the request's
// thread, a burst of registrations or logins holds every thread-pool thread, and the
// database drivers' completions queue behind them past their 2 s timeouts: 503s on a
// load the server only has to queue. Node's bcrypt (express, hapi) does this work on
// libuv's 4 worker threads while the event loop keeps serving I/O; this is the .NET
// counterpart, declared in impl.yaml: the same 4 threads, fed in arrival order.

using System.Collections.Concurrent;

namespace Fairbench.Aspnet.Auth;

public sealed class PasswordHashing : IDisposable
{
    /// <summary>The bcrypt cost factor of every stored hash (the spec's: 10).</summary>
    public const int Cost = 10;

    /// <summary>Threads that run bcrypt: libuv's default pool size, which Node's bcrypt uses.</summary>
    public const int Threads = 4;

    private readonly BlockingCollection<Action> _queue = new();

    // Checked against when the username is unknown, so that an unknown user costs the same
    // bcrypt work as a wrong password (no user enumeration by timing).
    private readonly string _noUserHash = BCrypt.Net.BCrypt.HashPassword("no such user", Cost);

    public PasswordHashing()
    {
        for (var i = 0; i < Threads; i++)
        {
            new Thread(Work) { IsBackground = true, Name = $"bcrypt-{i}" }.Start();
        }
    }

    public Task<string> HashAsync(string password) => Run(() => BCrypt.Net.BCrypt.HashPassword(password, Cost));

    /// <summary>Whether the password matches the stored hash; false, after the same work, when there is none.</summary>
    public Task<bool> VerifyAsync(string password, string? hash) =>
        Run(() => BCrypt.Net.BCrypt.Verify(password, hash ?? _noUserHash) && hash is not null);

    public void Dispose() => _queue.CompleteAdding();

    private Task<T> Run<T>(Func<T> work)
    {
        // The awaiting request resumes on the thread pool, not on a bcrypt thread.
        var done = new TaskCompletionSource<T>(TaskCreationOptions.RunContinuationsAsynchronously);
        _queue.Add(() =>
        {
            try
            {
                done.SetResult(work());
            }
            catch (Exception ex)
            {
                done.SetException(ex);
            }
        });
        return done.Task;
    }

    private void Work()
    {
        foreach (var item in _queue.GetConsumingEnumerable())
        {
            item();
        }
    }
}
