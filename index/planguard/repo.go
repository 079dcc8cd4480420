package planguard

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3" // the plain driver, for ForgetStats
)

// Repo makes a small repository the guarded paths run on: a corpus of n
// items from scripts/gencorpus (one commit) plus a chain of groups
// (depends_on) that tasks name with group:, committed on top. Big enough
// that SQLite's statistics favour an index wherever one serves; small
// enough for every test run.
func Repo(tb testing.TB, n int) string {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	dir := filepath.Join(tb.TempDir(), "repo")
	cmd := exec.Command("go", "run", "./scripts/gencorpus", "-n", fmt.Sprint(n), "-seed", "1", "-out", dir, "-git")
	cmd.Dir = root
	cmd.Env = GitEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("gencorpus: %v\n%s", err, out)
	}
	for i := 1; i <= 5; i++ {
		deps := ""
		if i < 5 {
			deps = fmt.Sprintf("depends_on: [G-%d]\n", i+1)
		}
		Write(tb, dir, fmt.Sprintf("groups/g-%d.md", i), fmt.Sprintf("---\nid: G-%d\ntype: Group\ntitle: Group %d\n%s---\n# Group %d\n", i, i, deps, i))
	}
	Write(tb, dir, "groups/ops.md", "---\nid: N-OPS\ntitle: Operations\ndepends_on: [G-5]\n---\n# Operations\n")
	Write(tb, dir, "groups/task.md", "---\nid: GT-1\ntype: Task\ntitle: A task of a group\ngroup: N-OPS\nstate: Ready\n---\n# A task of a group\n")
	Git(tb, dir, "add", "-A")
	Git(tb, dir, "commit", "-qm", "groups")
	return dir
}

// Write writes a file of the repository at dir (rel is slash separated).
func Write(tb testing.TB, dir, rel, content string) {
	tb.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// Git runs git in dir, with no user or system configuration and no hooks,
// and returns its output.
func Git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", append([]string{"-c", "core.hooksPath=" + os.DevNull}, args...)...)
	cmd.Dir = dir
	cmd.Env = GitEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// GitEnv is the environment without git's variables, with a fixed author
// and no user or system configuration.
func GitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "GIT_") && k != "CANON_SKIP" {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=planguard", "GIT_AUTHOR_EMAIL=planguard@canon.invalid",
		"GIT_COMMITTER_NAME=planguard", "GIT_COMMITTER_EMAIL=planguard@canon.invalid")
}

// ForgetStats deletes the statistics a full build leaves in the index of
// the repository at dir (sqlite_stat1, from PRAGMA optimize). With them,
// a small repository's numbers make SQLite prefer a scan that it would not
// make at 100k documents (an index on a column all of whose few values are
// alike); without them, its plans say what an index can serve, whatever
// the data's shape.
func ForgetStats(tb testing.TB, dir string) {
	tb.Helper()
	db, err := sql.Open("sqlite3", filepath.Join(dir, ".git", "canon", "index.db"))
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'`).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	if n > 0 {
		if _, err := db.Exec(`DELETE FROM sqlite_stat1`); err != nil {
			tb.Fatal(err)
		}
	}
}
