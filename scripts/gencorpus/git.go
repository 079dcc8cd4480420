package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Fixed identity and time for corpus commits, so that the same flags give the same hashes.
const (
	gitName  = "canon gencorpus"
	gitEmail = "gencorpus@canon.invalid"
	gitEpoch = 1735732800 // 2025-01-01T12:00:00Z; touch commits add one hour per commit
)

// gitEnv is the environment for child git processes: the caller's, minus every variable that
// would point git at another repository or index (we may be running inside a hook, where git
// sets them), minus user and system config (signing, autocrlf, hooksPath, templates would
// change the result), plus a fixed author and committer.
func gitEnv(when int64) []string {
	local := map[string]bool{}
	// What `git rev-parse --local-env-vars` prints (git 2.39), plus config and identity.
	for _, k := range strings.Fields(`GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_CONFIG GIT_CONFIG_PARAMETERS
		GIT_CONFIG_COUNT GIT_OBJECT_DIRECTORY GIT_DIR GIT_WORK_TREE GIT_IMPLICIT_WORK_TREE GIT_GRAFT_FILE
		GIT_INDEX_FILE GIT_NO_REPLACE_OBJECTS GIT_REPLACE_REF_BASE GIT_PREFIX GIT_INTERNAL_SUPER_PREFIX
		GIT_SHALLOW_FILE GIT_COMMON_DIR GIT_CEILING_DIRECTORIES GIT_DISCOVERY_ACROSS_FILESYSTEM
		GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL GIT_CONFIG_SYSTEM GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL
		GIT_AUTHOR_DATE GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE`) {
		local[k] = true
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if local[k] || strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_") {
			continue
		}
		env = append(env, kv)
	}
	date := "@" + strconv.FormatInt(when, 10) + " +0000"
	return append(env,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME="+gitName, "GIT_AUTHOR_EMAIL="+gitEmail, "GIT_AUTHOR_DATE="+date,
		"GIT_COMMITTER_NAME="+gitName, "GIT_COMMITTER_EMAIL="+gitEmail, "GIT_COMMITTER_DATE="+date,
	)
}

func git(dir string, when int64, stdin io.Reader, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(when)
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return strings.TrimSpace(out.String()), nil
}

// gitCommitAll turns a freshly generated corpus into a repository with one commit, a
// matching index and packed objects, and returns the commit hash.
//
// The commit is written with git fast-import rather than `git add -A && git commit`: at 100k
// files, add writes 100k loose objects and the first gc then packs them, which took about
// 100 s on a 2-core VM against about 20 s for fast-import, whose pack gc then reuses. The
// result is the same tree and, with the fixed identity and date, the same commit hash.
func gitCommitAll(c config, paths []string) (string, error) {
	if _, err := git(c.out, gitEpoch, nil, "init", "-q", "-b", "main"); err != nil {
		return "", err
	}
	if err := fastImport(c, paths); err != nil {
		return "", err
	}
	for _, args := range [][]string{
		{"read-tree", "HEAD"},               // the index, from the tree: no file is hashed...
		{"update-index", "-q", "--refresh"}, // ...until this fills in the stat data
		{"gc", "-q"},
	} {
		if _, err := git(c.out, gitEpoch, nil, args...); err != nil {
			return "", err
		}
	}
	return git(c.out, gitEpoch, nil, "rev-parse", "HEAD")
}

// fastImport streams every file in paths (slash-separated, relative to c.out) into one commit
// on refs/heads/main.
func fastImport(c config, paths []string) error {
	cmd := exec.Command("git", "fast-import", "--quiet", "--done")
	cmd.Dir = c.out
	cmd.Env = gitEnv(gitEpoch)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git fast-import: %w", err)
	}
	werr := writeImportStream(stdin, c, paths)
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git fast-import: %w: %s", err, strings.TrimSpace(errb.String()))
	}
	return werr
}

func writeImportStream(w io.Writer, c config, paths []string) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	who := fmt.Sprintf("%s <%s> %d +0000", gitName, gitEmail, gitEpoch)
	msg := fmt.Sprintf("gencorpus -n %d -adrs %d -seed %d\n", c.n, c.adrs, c.seed)
	fmt.Fprintf(bw, "commit refs/heads/main\nauthor %s\ncommitter %s\ndata %d\n%s", who, who, len(msg), msg)
	for _, rel := range paths {
		data, err := os.ReadFile(filepath.Join(c.out, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "M 100644 inline %s\ndata %d\n", rel, len(data))
		bw.Write(data)
		bw.WriteByte('\n')
	}
	bw.WriteString("\ndone\n")
	return bw.Flush()
}

// runTouch appends a worklog line to K items of an existing corpus repository and commits
// them. Which items, and the commit time, follow from the seed and the number of commits
// already on HEAD, so a sequence of touches is reproducible too.
func runTouch(c config, stderr io.Writer) error {
	start := time.Now()
	if _, err := os.Stat(filepath.Join(c.out, ".git")); err != nil {
		return fmt.Errorf("-touch needs a corpus repository in -out (made with -git): %w", err)
	}
	countOut, err := git(c.out, gitEpoch, nil, "rev-list", "--count", "HEAD")
	if err != nil {
		return err
	}
	round, err := strconv.Atoi(countOut)
	if err != nil {
		return fmt.Errorf("counting commits: %w", err)
	}
	when := int64(gitEpoch + 3600*round)
	if c.branch != "" {
		if _, err := git(c.out, when, nil, "checkout", "-q", "-b", c.branch); err != nil {
			return err
		}
	}
	list, err := git(c.out, when, nil, "ls-files", "-z", "--", productRoot+"/items/")
	if err != nil {
		return err
	}
	paths := strings.Split(strings.TrimRight(list, "\x00"), "\x00")
	if list == "" || len(paths) < c.touch {
		return fmt.Errorf("-touch %d: the repository has only %d items", c.touch, len(paths))
	}
	r := newRNG(c.seed, streamTouch+uint64(round))
	// Partial Fisher-Yates: the first K entries become a uniform sample.
	for k := 0; k < c.touch; k++ {
		j := k + r.intn(len(paths)-k)
		paths[k], paths[j] = paths[j], paths[k]
	}
	chosen := paths[:c.touch]
	v := newVocabulary()
	stamp := time.Unix(when, 0).UTC().Format("2006-01-02 15:04")
	for _, rel := range chosen {
		var b bytes.Buffer
		b.WriteString(stamp)
		b.WriteString(" [agent=gencorpus] Touched in round ")
		b.WriteString(strconv.Itoa(round))
		b.WriteString(":")
		for range r.between(4, 10) {
			b.WriteByte(' ')
			b.WriteString(v.word(r))
		}
		b.WriteString(".\n")
		if err := appendLine(filepath.Join(c.out, filepath.FromSlash(rel)), b.Bytes()); err != nil {
			return err
		}
	}
	spec := strings.Join(chosen, "\x00")
	msg := fmt.Sprintf("gencorpus -touch %d -seed %d (round %d)", c.touch, c.seed, round)
	// --only semantics: nothing else that happens to be staged goes into this commit. No
	// automatic gc: a detached gc would still be running when a benchmark starts.
	if _, err := git(c.out, when, strings.NewReader(spec), "-c", "gc.auto=0", "commit", "-q", "--no-verify",
		"--pathspec-from-file=-", "--pathspec-file-nul", "-m", msg); err != nil {
		return err
	}
	head, err := git(c.out, when, nil, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "gencorpus: touched %d item(s) in %s, commit %s, %.2fs\n", c.touch, c.out, head, time.Since(start).Seconds())
	return nil
}

// appendLine adds line at the end of the file, which is the end of its Worklog section.
func appendLine(path string, line []byte) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	return os.WriteFile(path, append(data, line...), 0o644)
}
