package safepath

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// RelError says a repository-relative path is not one: empty, absolute,
// holding a NUL byte, or climbing out with "..".
type RelError struct {
	Rel string
	Why string // "is empty", "is absolute", "holds a NUL byte", "leaves the repository"
}

func (e *RelError) Error() string {
	return fmt.Sprintf("%q %s; canon takes only paths inside the repository, relative to its top", e.Rel, e.Why)
}

// CleanRel proves rel a path relative to the repository that stays inside
// it by its text, and returns it cleaned (slash-separated; "." is the top).
// It refuses the empty path, a NUL byte (the system would cut the path
// there), an absolute path (with a slash, a backslash or a drive letter
// first, whatever the system), and a ".." that climbs out after cleaning.
// It reads nothing: Join also follows the links.
func CleanRel(rel string) (string, error) {
	switch {
	case rel == "":
		return "", &RelError{rel, "is empty"}
	case strings.IndexByte(rel, 0) >= 0:
		return "", &RelError{rel, "holds a NUL byte"}
	case absolute(rel):
		return "", &RelError{rel, "is absolute"}
	}
	c := path.Clean(filepath.ToSlash(rel))
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", &RelError{rel, "leaves the repository"}
	}
	return c, nil
}

// absolute is true for a path absolute on any system canon runs on: a
// repository's file is read on Unix and Windows alike.
func absolute(p string) bool {
	if p[0] == '/' || p[0] == '\\' || filepath.IsAbs(p) || filepath.VolumeName(p) != "" {
		return true
	}
	return len(p) >= 2 && p[1] == ':' && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z')
}

// Join returns the absolute path of the repository-relative rel under
// root, proven inside root by its text (CleanRel) and with its links
// followed (Inside).
func Join(root, rel string) (string, error) {
	c, err := CleanRel(rel)
	if err != nil {
		return "", err
	}
	p := filepath.Join(root, filepath.FromSlash(c))
	if err := Inside(p, root); err != nil {
		return "", err
	}
	return p, nil
}

// Within reports whether p is root or lies under it, by the text of the
// two paths (cleaned; both absolute or both relative, "" being the top).
// It follows no links: Inside does. This is canon's one textual
// containment test.
func Within(root, p string) bool {
	if strings.IndexByte(p, 0) >= 0 || strings.IndexByte(root, 0) >= 0 {
		return false
	}
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
