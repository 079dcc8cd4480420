package edit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiffAppliesWithGit: Diff's hunks say where they start in both
// files, so git apply takes them exactly: two edits near each other (the
// context between them one hunk) and a section appended at the end, as
// canon done --log writes them (go-udiff said +29 for a hunk on line 31).
func TestDiffAppliesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	var before []string
	for i := 1; i <= 33; i++ {
		before = append(before, "line "+strings.Repeat("x", i%5))
	}
	after := append([]string{}, before...)
	after[3], after[6] = "status: Done", "updated: today"
	after = append(after, "", "## Worklog", "", "2026-11-28 12:00 done")
	b, a := strings.Join(before, "\n")+"\n", strings.Join(after, "\n")+"\n"
	diff := Diff([]*File{{Path: "t.md", Before: []byte(b), After: []byte(a)}})
	if !strings.Contains(diff, "@@ -31,3 +31,7 @@") {
		t.Errorf("the second hunk's header:\n%s", diff)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.md"), []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "apply", "--unidiff-zero", "-v", "-")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(diff)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git apply: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "offset") {
		t.Errorf("git apply moved a hunk:\n%s", out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "t.md"))
	if err != nil || string(got) != a {
		t.Fatalf("applied: %q (%v)", got, err)
	}
}
