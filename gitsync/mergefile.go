package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/canon-md/canon/index/safepath"
)

// MergeFiles are the three files git hands a merge driver (%A, %O, %B):
// temporary files git made in the working tree for the driver, which the
// driver may rewrite; git reads the result from Ours.
type MergeFiles struct {
	Ours, Base, Theirs string // absolute paths inside the repository
	// MarkerSize is the length of the conflict markers (%L); 0 is git's 7.
	MarkerSize int
	// AsGiven merges the files as git gave them: MergeFile writes nothing
	// into them (a file too large for the driver to read).
	AsGiven bool
}

// MergeFile is git's own three-way merge (git merge-file) of three texts:
// it writes them into the driver's files and returns the merge and whether
// it holds conflict markers. The markers are in the style the user
// configured (merge.conflictStyle, read by git merge-file, `git -c` on the
// command line included: the configuration variables git hands its
// drivers are kept).
func (r *Repo) MergeFile(ctx context.Context, f MergeFiles, base, ours, theirs []byte) ([]byte, bool, error) {
	for _, w := range []struct {
		path string
		data []byte
	}{{f.Ours, ours}, {f.Base, base}, {f.Theirs, theirs}} {
		if f.AsGiven {
			break
		}
		if err := writeScratch(w.path, w.data, r.Root); err != nil {
			return nil, false, fmt.Errorf("write the merge's input: %w", err)
		}
	}
	size := f.MarkerSize
	if size <= 0 || size > 1000 {
		size = 7
	}
	cmd := exec.CommandContext(ctx, "git", "-C", r.Root, "merge-file", "-p", "--marker-size="+strconv.Itoa(size),
		"-L", "ours", "-L", "base", "-L", "theirs", "--", f.Ours, f.Base, f.Theirs)
	cmd.Env = ScrubbedEnv("GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out, false, nil
	case errors.As(err, &ee) && ee.ExitCode() > 0 && ee.ExitCode() < 128:
		return out, true, nil // the number of conflicts
	}
	msg := strings.TrimSpace(stderr.String())
	if msg == "" {
		msg = err.Error()
	}
	return nil, false, fmt.Errorf("git merge-file: %s", msg)
}

// FileMode is the permission bits of a file, for writing it back as it
// was (0o644 when it cannot be read).
func FileMode(path string) os.FileMode {
	if info, err := os.Stat(path); err == nil {
		return info.Mode().Perm()
	}
	return 0o644
}

// writeScratch rewrites one of the temporary files git made for its merge
// driver, proven inside the repository. It is git's scratch, not the
// user's: it is neither synced nor renamed into place (three syncs a file
// were most of the driver's time), and git deletes it after the merge.
func writeScratch(path string, data []byte, root string) error {
	if err := safepath.Writable(path, root); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o600)
}
