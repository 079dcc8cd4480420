package gitsync

import (
	"context"
	"strings"
	"testing"
)

func TestParsePushLines(t *testing.T) {
	t.Parallel()
	a, z := strings.Repeat("a", 40), strings.Repeat("0", 40)
	in := strings.Join([]string{
		"refs/heads/main " + a + " refs/heads/main " + z,
		"HEAD~1 " + a + " refs/heads/x " + a, // the local name is said, not used
		"(delete) " + z + " refs/heads/old " + a,
		"",
		"refs/heads/main --output=x refs/heads/main " + z, // an option for an oid
		"refs/heads/main " + a + " --upload-pack=x " + z,  // for a ref
		"refs/heads/main " + a + " refs/heads/a..b " + z,  // revision syntax
		"refs/heads/main " + strings.ToUpper(a) + " refs/heads/main " + z,
		"refs/heads/main " + a[:39] + " refs/heads/main " + z,
		"refs/heads/main " + a + " refs/heads/main",
		"refs/heads/main " + a + " main " + z, // not a full ref
		"refs/heads/main " + a + " refs/heads/x.lock " + z,
		"refs/heads/main " + a + " refs/heads/x\tHEAD " + z,
	}, "\n")
	lines, ignored, err := ParsePushLines(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 3 || lines[0].RemoteRef != "refs/heads/main" || lines[1].LocalRef != "HEAD~1" || !ZeroOID(lines[2].LocalOID) {
		t.Errorf("lines = %+v", lines)
	}
	if len(ignored) != 9 {
		t.Errorf("ignored %d lines, want 9: %q", len(ignored), ignored)
	}
	many := strings.Repeat("refs/heads/main "+a+" refs/heads/main "+z+"\n", maxPushLines+5)
	lines, ignored, _ = ParsePushLines(strings.NewReader(many))
	if len(lines) != maxPushLines || len(ignored) != 1 {
		t.Errorf("%d lines: kept %d, ignored %q", maxPushLines+5, len(lines), ignored)
	}
	if ZeroOID(a) || !ZeroOID(strings.Repeat("0", 64)) || ZeroOID("") {
		t.Error("ZeroOID")
	}
}

// TestPushCollisions: a new branch is compared with the remote's default
// branch as last fetched; one item on both sides is not a collision; a
// side that adds more than maxPushDocs documents is summarised, not read.
func TestPushCollisions(t *testing.T) {
	dir, s := committed(t, map[string]string{"t/KB-1.md": "---\nid: KB-1\n---\n"})
	base := git(t, dir, "rev-parse", "HEAD")
	write(t, dir, "t/theirs.md", "---\nid: KB-2\n---\n# theirs\n")
	write(t, dir, "t/same.md", "---\nid: KB-3\n---\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "theirs")
	git(t, dir, "update-ref", "refs/remotes/origin/HEAD", "HEAD")
	git(t, dir, "switch", "-q", "-c", "mine", base)
	write(t, dir, "t/mine.md", "---\nid: KB-2\n---\n# mine\n")
	write(t, dir, "t/same.md", "---\nid: KB-3\n---\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "mine")
	zero := strings.Repeat("0", 40)
	l := PushLine{LocalRef: "refs/heads/mine", LocalOID: git(t, dir, "rev-parse", "HEAD"), RemoteRef: "refs/heads/mine", RemoteOID: zero}
	ctx := context.Background()
	m, err := s.PushCollisions(ctx, "origin", l)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Collisions) != 1 || m.Collisions[0].Ident != "KB-2" || len(m.Collisions[0].Docs) != 2 || m.Against != "origin/HEAD" {
		t.Fatalf("PushCollisions = %+v", m)
	}
	for _, d := range m.Collisions[0].Docs {
		if len(m.From[d.Path]) < 7 {
			t.Errorf("no commit for %s: %q", d.Path, m.From[d.Path])
		}
	}
	// A URL for a remote: no remote-tracking ref to compare with.
	if m, err := s.PushCollisions(ctx, "../origin.git", l); err != nil || m.Skipped == "" || len(m.Collisions) > 0 {
		t.Errorf("a remote without a name: %+v, %v", m, err)
	}
	old := maxPushDocs
	defer func() { maxPushDocs = old }()
	maxPushDocs = 1
	m, err = s.PushCollisions(ctx, "origin", l)
	if err != nil || len(m.Collisions) != 0 || !strings.Contains(m.Note, "more than 1 documents") {
		t.Errorf("a push past maxPushDocs: %+v, %v", m, err)
	}
}
