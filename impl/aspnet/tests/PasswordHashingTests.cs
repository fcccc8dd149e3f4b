using Fairbench.Aspnet.Auth;
using Xunit;

namespace Fairbench.Aspnet.Tests;

public class PasswordHashingTests
{
    [Fact]
    public async Task A_hash_verifies_its_password_and_no_other()
    {
        using var passwords = new PasswordHashing();
        var hash = await passwords.HashAsync("s3cret-pw");

        Assert.StartsWith($"$2a${PasswordHashing.Cost}$", hash);
        Assert.True(await passwords.VerifyAsync("s3cret-pw", hash));
        Assert.False(await passwords.VerifyAsync("s3cret-px", hash));
    }

    [Fact]
    public async Task An_unknown_user_is_no_match()
    {
        using var passwords = new PasswordHashing();
        Assert.False(await passwords.VerifyAsync("no such user", null));
    }

    [Fact]
    public async Task Runs_off_the_thread_pool_and_more_requests_than_threads_all_finish()
    {
        using var passwords = new PasswordHashing();
        var hashes = await Task.WhenAll(Enumerable.Range(0, 3 * PasswordHashing.Threads).Select(i => passwords.HashAsync($"password-{i}")));

        Assert.Equal(hashes.Length, hashes.Distinct().Count());
        Assert.True(await passwords.VerifyAsync("password-5", hashes[5]));
        // The awaiting caller resumes on the thread pool, never on a bcrypt thread.
        Assert.True(Thread.CurrentThread.IsThreadPoolThread);
    }
}
