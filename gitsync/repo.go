package gitsync

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/safepath"
)

// ErrNotRepo is returned outside a git working tree.
var ErrNotRepo = errors.New("not inside a git working tree")

// Repo locates a git working tree and its git folders without starting git:
// every canon command begins here, so it must cost a few stats.
type Repo struct {
	Root      string // the working tree's top folder
	GitDir    string // this worktree's git folder (.git, or .git/worktrees/NAME)
	CommonDir string // the folder shared by all worktrees (objects, refs)
}

// Discover finds the repository containing dir. GIT_DIR and GIT_WORK_TREE
// are honoured when both are set, as git sets them for some hooks.
func Discover(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if gd, wt := os.Getenv("GIT_DIR"), os.Getenv("GIT_WORK_TREE"); gd != "" && wt != "" {
		return fromGitDir(absFrom(abs, wt), absFrom(abs, gd))
	}
	for d := abs; ; d = filepath.Dir(d) {
		dotgit := filepath.Join(d, ".git")
		info, err := os.Stat(dotgit)
		if err == nil {
			if info.IsDir() {
				return fromGitDir(d, dotgit)
			}
			gd, err := readGitFile(dotgit)
			if err != nil {
				return nil, err
			}
			return fromGitDir(d, gd)
		}
		if gd := os.Getenv("GIT_DIR"); gd != "" && d == abs {
			// GIT_DIR alone: the working tree is the current folder.
			return fromGitDir(abs, absFrom(abs, gd))
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil, ErrNotRepo
		}
		if _, err := os.Stat(filepath.Join(d, "HEAD")); err == nil && isBareLike(d) {
			return nil, fmt.Errorf("%s is a bare repository: canon needs a working tree", d)
		}
	}
}

func absFrom(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

func isBareLike(d string) bool {
	for _, n := range []string{"objects", "refs"} {
		if info, err := os.Stat(filepath.Join(d, n)); err != nil || !info.IsDir() {
			return false
		}
	}
	return true
}

// readGitFile reads a ".git" file ("gitdir: PATH"), as in linked worktrees
// and submodules.
func readGitFile(p string) (string, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	line := strings.TrimSpace(string(data))
	target, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s is not a git folder or gitdir file", p)
	}
	return absFrom(filepath.Dir(p), strings.TrimSpace(target)), nil
}

func fromGitDir(root, gitDir string) (*Repo, error) {
	r := &Repo{Root: filepath.Clean(root), GitDir: filepath.Clean(gitDir), CommonDir: filepath.Clean(gitDir)}
	if data, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		r.CommonDir = absFrom(gitDir, strings.TrimSpace(string(data)))
	}
	if _, err := os.Stat(filepath.Join(r.GitDir, "HEAD")); err != nil {
		return nil, fmt.Errorf("%s has no HEAD: %w", r.GitDir, ErrNotRepo)
	}
	return r, nil
}

// CanonDir is where this worktree's derived data lives (git rev-parse
// --git-path canon): never committed, one per linked worktree.
func (r *Repo) CanonDir() string { return filepath.Join(r.GitDir, "canon") }

// IndexPath is the index database of this worktree.
func (r *Repo) IndexPath() string { return filepath.Join(r.CanonDir(), "index.db") }

// VectorsPath is the word-vectors sidecar of this worktree (canon vectors
// import, ADR-0050): derived data, deleted to turn the bridge off.
func (r *Repo) VectorsPath() string { return filepath.Join(r.CanonDir(), "vectors.bin") }

// InfoExclude is the repository's own ignore file.
func (r *Repo) InfoExclude() string { return filepath.Join(r.CommonDir, "info", "exclude") }

// Head reads the commit HEAD points at by reading HEAD, the ref file and
// packed-refs: no objects, no git process. commit is "" on an unborn branch.
// ref is the branch ref ("" when detached).
func (r *Repo) Head() (commit, ref string, err error) {
	data, err := os.ReadFile(filepath.Join(r.GitDir, "HEAD"))
	if err != nil {
		return "", "", fmt.Errorf("read HEAD: %w", err)
	}
	line := strings.TrimSpace(string(data))
	target, symbolic := strings.CutPrefix(line, "ref:")
	if !symbolic {
		return line, "", nil
	}
	ref = strings.TrimSpace(target)
	for i := 0; i < 5; i++ { // a symbolic ref may point at another
		commit, next, err := r.readRef(ref)
		if err != nil {
			return "", ref, err
		}
		if next == "" {
			return commit, ref, nil
		}
		ref = next
	}
	return "", ref, fmt.Errorf("ref %s: too many symbolic links", ref)
}

// readRef resolves one ref: loose file first (per-worktree refs live in the
// git folder, the rest in the common one), then packed-refs.
func (r *Repo) readRef(ref string) (commit, symbolic string, err error) {
	dirs := []string{r.CommonDir}
	if !strings.HasPrefix(ref, "refs/") || strings.HasPrefix(ref, "refs/bisect/") || strings.HasPrefix(ref, "refs/worktree/") {
		dirs = []string{r.GitDir}
	}
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, filepath.FromSlash(ref)))
		if err == nil {
			line := strings.TrimSpace(string(data))
			if t, ok := strings.CutPrefix(line, "ref:"); ok {
				return "", strings.TrimSpace(t), nil
			}
			return line, "", nil
		}
		if !errors.Is(err, os.ErrNotExist) && !isDirErr(err) {
			return "", "", fmt.Errorf("read %s: %w", ref, err)
		}
	}
	f, err := os.Open(filepath.Join(r.CommonDir, "packed-refs"))
	if errors.Is(err, os.ErrNotExist) {
		return r.reftableFallback(ref)
	}
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		oid, name, ok := strings.Cut(sc.Text(), " ")
		if ok && name == ref && !strings.HasPrefix(oid, "#") && !strings.HasPrefix(oid, "^") {
			return oid, "", nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", "", err
	}
	return r.reftableFallback(ref)
}

// reftableFallback covers a ref found nowhere on disk: an unborn branch, or
// a repository using the reftable format, which only git can read.
func (r *Repo) reftableFallback(ref string) (string, string, error) {
	if r.RefStorage() != "reftable" {
		return "", "", nil // unborn branch
	}
	out, err := r.Git(context.Background(), "rev-parse", "--verify", "-q", "--end-of-options", ref)
	if err != nil {
		return "", "", nil
	}
	return strings.TrimSpace(string(out)), "", nil
}

func isDirErr(err error) bool {
	var pe *os.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "is a directory") ||
		errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "not a directory")
}

// localEnvVars are the variables `git rev-parse --local-env-vars` lists: a
// child git started from a hook must not inherit them, or it works on the
// hook's index file or the wrong repository.
var localEnvVars = []string{
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
	"GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE",
	"GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX", "GIT_SHALLOW_FILE",
	"GIT_COMMON_DIR",
}

// ScrubbedEnv is the environment without git's repository-local variables.
// keep names variables to let through (pre-commit keeps GIT_INDEX_FILE for
// the one call that reads the staged set; keeping GIT_CONFIG_COUNT keeps
// the GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n it counts).
func ScrubbedEnv(keep ...string) []string {
	drop := map[string]bool{}
	for _, v := range localEnvVars {
		drop[v] = true
	}
	for _, k := range keep {
		delete(drop, k)
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if drop[name] || drop["GIT_CONFIG_COUNT"] && (strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_")) {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// Git runs git in the working tree with a scrubbed environment and returns
// its standard output.
func (r *Repo) Git(ctx context.Context, args ...string) ([]byte, error) {
	return r.GitEnv(ctx, ScrubbedEnv(), args...)
}

// GitStream runs git like Git and hands its standard output to read as it
// comes, so the caller can work while git still writes.
func (r *Repo) GitStream(ctx context.Context, args []string, read func(*bufio.Reader) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", r.Root}, args...)...)
	cmd.Env = ScrubbedEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	if rerr := read(bufio.NewReaderSize(out, 64<<10)); rerr != nil {
		cancel()       // what git still has to say is of no use
		_ = cmd.Wait() // killed: its exit adds nothing to rerr
		return rerr
	}
	if err := cmd.Wait(); err != nil {
		return gitError(args, &stderr, err)
	}
	return nil
}

// GitEnv is Git with a chosen environment.
func (r *Repo) GitEnv(ctx context.Context, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", r.Root}, args...)...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, gitError(args, &stderr, err)
	}
	return out, nil
}

// gitError says which git command failed and what it printed.
func gitError(args []string, stderr *bytes.Buffer, err error) error {
	msg := strings.TrimSpace(stderr.String())
	if msg == "" {
		msg = err.Error()
	}
	return fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
}

// ObjectFormat is the repository's object id format: "sha1" or "sha256"
// (extensions.objectFormat).
func (r *Repo) ObjectFormat() string {
	if f := r.extension("objectformat"); f != "" {
		return f
	}
	return "sha1"
}

// RefStorage is how the repository keeps its refs: "files" (loose refs
// and packed-refs, which canon reads itself) or "reftable"
// (extensions.refStorage, git 2.45 and later, or a reftable folder), which
// only git reads.
func (r *Repo) RefStorage() string {
	if f := r.extension("refstorage"); f != "" {
		return f
	}
	if _, err := os.Stat(filepath.Join(r.CommonDir, "reftable")); err == nil {
		return "reftable"
	}
	return "files"
}

// extension is the value of a key of the common git config (the
// extensions canon asks about: objectformat, refstorage), lower-cased, ""
// when it is not set or the config cannot be read. The read is bounded.
func (r *Repo) extension(key string) string {
	data, err := safepath.ReadFile(filepath.Join(r.CommonDir, "config"), safepath.ConfigLimit, r.CommonDir)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), key) {
			return strings.ToLower(strings.TrimSpace(v))
		}
	}
	return ""
}

// CommitPaths lists, sorted and without repeats, the files changed by the
// last commits (at most limit) whose message names id: the paths a task's
// work touched, for scope conditions when the task declares none.
func (r *Repo) CommitPaths(ctx context.Context, id string, limit int) ([]string, error) {
	if strings.TrimSpace(id) == "" {
		return nil, nil
	}
	out, err := r.Git(ctx, "log", "--format=", "--name-only", "-z", "--no-renames", "--fixed-strings", "-i",
		"--grep="+id, fmt.Sprintf("--max-count=%d", limit), "HEAD", "--")
	if err != nil {
		if head, _, herr := r.Head(); herr == nil && head == "" {
			return nil, nil // no commit yet
		}
		return nil, err
	}
	seen := map[string]bool{}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		p = strings.TrimSpace(p)
		if p != "" && !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	return paths, nil
}
