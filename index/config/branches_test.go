package config

import "testing"

func TestBranchesFollows(t *testing.T) {
	cfg, err := Parse(File, []byte("branches:\n  include: [\"refs/heads/*\", \"refs/remotes/*\"]\n  exclude: [\"refs/remotes/*/dependabot/*\", refs/heads/wip]\n  max: 10\n"))
	if err != nil {
		t.Fatal(err)
	}
	b := cfg.Branches
	for name, want := range map[string]bool{
		"refs/heads/main":                        true,
		"refs/heads/agent/a":                     true,
		"refs/heads/wip":                         false,
		"refs/remotes/origin/x":                  true,
		"refs/remotes/origin/dependabot/npm/foo": false,
		"refs/tags/v1":                           false,
		"worktrees/w/HEAD":                       false,
	} {
		if got := b.Follows(name); got != want {
			t.Errorf("Follows(%q) = %v, want %v", name, got, want)
		}
	}
	if b.Max != 10 || !DefaultBranches().Follows("worktrees/w/HEAD") {
		t.Errorf("max %d; the default follows worktrees: %v", b.Max, DefaultBranches().Follows("worktrees/w/HEAD"))
	}
	for _, bad := range []string{"branches:\n  max: 201\n", "branches:\n  include: [\"\"]\n", "branches:\n  nope: 1\n"} {
		if _, err := Parse(File, []byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
