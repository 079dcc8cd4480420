package safepath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// OutsideError says a path leads outside the folders canon may touch.
type OutsideError struct {
	Path   string // the path as given
	Link   string // the link that leads out ("" when the path itself is outside)
	Target string // where the link leads
	Roots  []string
	Read   bool // the path was to be read, not written
}

func (e *OutsideError) Error() string {
	switch {
	case e.Link != "" && e.Read && e.isLink():
		return fmt.Sprintf("%s is a symbolic link to %s, outside the repository; canon reads nothing outside it: replace the link with the file itself", e.rel(e.Path), e.Target)
	case e.Link != "" && e.Read:
		return fmt.Sprintf("%s leads outside the repository through the symbolic link %s (to %s); canon reads nothing outside it: remove the link, or replace it with the file itself", e.rel(e.Path), e.rel(e.Link), e.Target)
	case e.Link != "":
		return fmt.Sprintf("%s leads outside the repository through the symbolic link %s (to %s); canon will not write or delete there: remove the link, or make it a folder inside the repository", e.rel(e.Path), e.rel(e.Link), e.Target)
	case e.Read:
		return fmt.Sprintf("%s is outside the repository; canon reads only files inside it", e.Path)
	}
	return fmt.Sprintf("%s is outside the repository; canon writes and deletes only inside it", e.Path)
}

// isLink: the path itself is the link that leads out.
func (e *OutsideError) isLink() bool {
	abs, err := filepath.Abs(e.Path)
	return err == nil && abs == e.Link
}

// rel shows a path relative to the first root when it is under it.
func (e *OutsideError) rel(p string) string {
	if len(e.Roots) == 0 {
		return p
	}
	if r, err := filepath.Rel(e.Roots[0], p); err == nil && Within(e.Roots[0], p) {
		return filepath.ToSlash(r)
	}
	return p
}

// ErrLink says the path itself is a symbolic link, which a write would
// follow.
var ErrLink = errors.New("is a symbolic link")

// Inside returns nil when path, its links followed, is inside one of the
// roots; else an *OutsideError naming the link that leads out.
func Inside(path string, roots ...string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	resolved, err := resolve(abs)
	if err != nil {
		return err
	}
	var realRoots []string
	for _, r := range roots {
		rr, err := resolve(r)
		if err != nil {
			return fmt.Errorf("resolve %s: %w", r, err)
		}
		realRoots = append(realRoots, rr)
		if Within(rr, resolved) {
			return nil
		}
	}
	e := &OutsideError{Path: path, Roots: roots}
	// Name the first link on the way that leads out.
	for cur := abs; ; {
		parent := filepath.Dir(cur)
		if fi, err := os.Lstat(cur); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			if t, err := resolve(cur); err == nil {
				out := true
				for _, rr := range realRoots {
					out = out && !Within(rr, t)
				}
				if out {
					e.Link, e.Target = cur, t
				}
			}
		}
		if parent == cur {
			break
		}
		cur = parent
	}
	return e
}

// Writable is Inside, and the path is not itself a symbolic link.
func Writable(path string, roots ...string) error {
	if err := Inside(path, roots...); err != nil {
		return err
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s %w; canon does not write through links: replace it with the file itself", path, ErrLink)
	}
	return nil
}

// MkdirAll creates a folder (and its parents) after proving it inside.
func MkdirAll(path string, perm os.FileMode, roots ...string) error {
	if err := Inside(path, roots...); err != nil {
		return err
	}
	if err := os.MkdirAll(path, perm); err != nil {
		return err
	}
	return Inside(path, roots...) // a link put in place meanwhile
}

// RemoveAll deletes path and what it holds, proving it inside right
// before: a link is removed itself, never followed, and nothing outside
// the roots is deleted even when a link appears on the way meanwhile.
func RemoveAll(path string, roots ...string) error {
	if err := inside(filepath.Dir(path), roots...); err != nil {
		return err
	}
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return os.Remove(path) // the link, not its target
	}
	if err := inside(path, roots...); err != nil {
		return err
	}
	return os.RemoveAll(path) // does not follow links inside the folder
}

// Remove deletes one file or empty folder (a link itself), proving its
// folder inside right before.
func Remove(path string, roots ...string) error {
	if err := inside(filepath.Dir(path), roots...); err != nil {
		return err
	}
	return os.Remove(path)
}

func inside(path string, roots ...string) error { return Inside(path, roots...) }

// resolve follows every link of the existing part of an absolute path and
// appends the rest, which does not exist yet.
func resolve(path string) (string, error) {
	path = filepath.Clean(path)
	var rest []string
	cur := path
	for {
		if _, err := os.Lstat(cur); err == nil {
			break
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return path, nil
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
		cur = parent
	}
	resolved, err := filepath.EvalSymlinks(cur)
	if err != nil {
		// A dangling link: where it points is where a write would go.
		if target, lerr := os.Readlink(cur); lerr == nil {
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(cur), target)
			}
			resolved = filepath.Clean(target)
		} else {
			return "", err
		}
	}
	return filepath.Join(append([]string{resolved}, rest...)...), nil
}
