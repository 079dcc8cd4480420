package gitfile

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/canon-md/canon/index/safepath"
)

// refFileLimit bounds the read of a loose ref or a worktree's HEAD: an
// object id or "ref: NAME", a line.
const refFileLimit = 4096

// Refs reads the branches and remote-tracking branches of the git folder
// commonDir from its files (packed-refs, then the loose ref files under
// refs/heads and refs/remotes, which win), and the detached HEAD of each
// linked worktree as worktrees/NAME/HEAD: ref name to what the file
// holds, which the caller checks is an object id. Symbolic refs (such as
// refs/remotes/origin/HEAD, or a worktree on a branch) are left out. A
// repository that keeps its refs in a reftable has none of these files
// up to date: its caller asks git.
func Refs(commonDir string) (map[string]string, error) {
	seen := map[string]string{}
	if err := packedRefs(commonDir, seen); err != nil {
		return nil, err
	}
	for _, top := range []string{"refs/heads", "refs/remotes"} {
		if err := looseRefs(commonDir, top, seen); err != nil {
			return nil, err
		}
	}
	worktreeHeads(commonDir, seen)
	return seen, nil
}

// packedRefs reads packed-refs into seen (loose refs, read after, win).
func packedRefs(commonDir string, seen map[string]string) error {
	f, err := os.Open(filepath.Join(commonDir, "packed-refs"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		oid, name, ok := strings.Cut(sc.Text(), " ")
		if ok && !strings.HasPrefix(oid, "#") && !strings.HasPrefix(oid, "^") {
			seen[name] = oid
		}
	}
	return sc.Err()
}

// looseRefs reads the ref files under top into seen; symbolic refs (such
// as refs/remotes/origin/HEAD) are left out.
func looseRefs(commonDir, top string, seen map[string]string) error {
	root := filepath.Join(commonDir, filepath.FromSlash(top))
	if err := safepath.Inside(root, commonDir); err != nil {
		return nil // a link that leads out: nothing there is read
	}
	return filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		data, err := safepath.ReadListed(p, refFileLimit)
		if err != nil {
			return nil // gone since listed, or being written: packed-refs or the next look has it
		}
		rel, _ := filepath.Rel(commonDir, p)
		name := filepath.ToSlash(rel)
		line := strings.TrimSpace(string(data))
		if strings.HasPrefix(line, "ref:") {
			delete(seen, name)
			return nil
		}
		seen[name] = line
		return nil
	})
}

// worktreeHeads adds the detached HEAD of each linked worktree as
// worktrees/NAME/HEAD (a worktree on a branch is followed as that branch).
func worktreeHeads(commonDir string, seen map[string]string) {
	entries, err := os.ReadDir(filepath.Join(commonDir, "worktrees"))
	if err != nil {
		return
	}
	for _, e := range entries {
		data, err := safepath.ReadFile(filepath.Join(commonDir, "worktrees", e.Name(), "HEAD"), refFileLimit, commonDir)
		if err != nil {
			continue
		}
		line := strings.TrimSpace(string(data))
		if !strings.HasPrefix(line, "ref:") {
			seen["worktrees/"+e.Name()+"/HEAD"] = line
		}
	}
}
