package workset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/safepath"
)

// Dir is the repo-relative folder holding the worksets. Git ignores it
// through a .gitignore inside it, written with the first workset.
const Dir = index.WorksetDir

// The files of a workset folder.
const (
	DBFile          = "workset.db"
	PlanFile        = "plan.md"
	NotesFile       = "notes.md"
	DeliverableFile = "deliverable.md"
	// KeysFile lists the members' node keys, one a line: a sync reads it
	// to tell whether a workset can be affected without opening its
	// database. It always holds at least the members (a superset while
	// members change).
	KeysFile = "members.keys"
)

// MaxNameLen bounds a workset name, in bytes.
const MaxNameLen = 64

// ErrBadName wraps every reason a name is refused.
var ErrBadName = errors.New("bad workset name")

// ValidateName accepts a name that is safe as one folder name on every
// system: 1 to MaxNameLen characters from A-Z a-z 0-9 . _ -, starting with
// a letter or a digit, not ending with a dot, without "..". That excludes
// path separators, hidden names and anything that could leave
// .cache/worksets.
func ValidateName(name string) error {
	bad := func(why string) error {
		return fmt.Errorf("%w %q: %s; use letters, digits, '.', '_' and '-', starting with a letter or digit, at most %d characters", ErrBadName, shorten(name), why, MaxNameLen)
	}
	switch {
	case name == "":
		return bad("it is empty")
	case len(name) > MaxNameLen:
		return bad(fmt.Sprintf("it is %d characters long", utf8.RuneCountInString(name)))
	case strings.ContainsAny(name, `/\`):
		return bad("it contains a path separator")
	case strings.Contains(name, ".."):
		return bad(`it contains ".."`)
	case name[0] == '.':
		return bad("it starts with a dot")
	case strings.HasSuffix(name, "."):
		return bad("it ends with a dot") // Windows drops it
	}
	for i, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
		if !ok {
			return bad(fmt.Sprintf("it contains %q", r))
		}
		if i == 0 && (r == '_' || r == '-') {
			return bad("it starts with " + string(r))
		}
	}
	return nil
}

func shorten(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// Folder is the folder of the workset name under root, after checking the
// name and that the result stays inside .cache/worksets.
func Folder(root, name string) (string, error) {
	if err := ValidateName(name); err != nil {
		return "", err
	}
	base := filepath.Join(root, filepath.FromSlash(Dir))
	p := filepath.Join(base, name)
	rel, err := filepath.Rel(base, p)
	if err != nil || rel != name {
		return "", fmt.Errorf("%w %q: it does not stay inside %s", ErrBadName, name, Dir)
	}
	// A repository can commit .cache (or .cache/worksets) as a link to
	// anywhere: the text of the path proves nothing.
	if err := safepath.Inside(p, root); err != nil {
		return "", err
	}
	return p, nil
}

// base is the folder of the worksets, proven inside the repository.
func base(root string) (string, error) {
	b := filepath.Join(root, filepath.FromSlash(Dir))
	return b, safepath.Inside(b, root)
}

// ErrNotFound says there is no workset of that name.
var ErrNotFound = errors.New("no such workset")

// existing returns the folder of an existing workset: a real folder (not
// a symbolic link) holding workset.db.
func existing(root, name string) (string, error) {
	dir, err := Folder(root, name)
	if err != nil {
		return "", err
	}
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%w %q (canon workset list shows them)", ErrNotFound, name)
	}
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a folder; canon keeps worksets in folders and leaves this alone", filepath.Join(Dir, name))
	}
	if _, err := os.Stat(filepath.Join(dir, DBFile)); err != nil {
		return "", fmt.Errorf("%s has no %s: it is not a workset (remove the folder by hand if it is debris)", filepath.Join(Dir, name), DBFile)
	}
	return dir, nil
}

// names lists the folders under .cache/worksets that can be worksets, by
// name. A missing folder is no worksets: one stat.
func names(root string) ([]string, error) {
	b, err := base(root)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(b)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && ValidateName(e.Name()) == nil {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// ensureIgnored creates .cache/worksets with a .gitignore holding "*", so
// that git ignores everything in it (the .gitignore too) whatever the
// repository's own ignore files say.
func ensureIgnored(root string) error {
	base := filepath.Join(root, filepath.FromSlash(Dir))
	if err := safepath.MkdirAll(base, 0o755, root); err != nil {
		return fmt.Errorf("create %s: %w", Dir, err)
	}
	gi := filepath.Join(base, ".gitignore")
	if err := safepath.Writable(gi, root); err != nil {
		return err
	}
	if data, err := safepath.ReadFile(gi, safepath.IgnoreLimit, root); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(line) == "*" {
				return nil
			}
		}
	}
	content := "# Written by canon: worksets are derived and private to this clone.\n*\n"
	if err := safepath.WriteFile(gi, []byte(content), 0o644, root); err != nil {
		return fmt.Errorf("write %s/.gitignore: %w", Dir, err)
	}
	return nil
}
