package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// The anchor (issue 26): Backlog.md's board load across branches on the
// same backlog. Backlog.md reads its own layout (backlog/tasks/task-N -
// Title.md), so the corpus's items are written in it, in a repository of
// their own under -work: every item a task with its title and state, and
// the same branches changing the same number of tasks each. Its board
// then loads every active branch's tasks (check_active_branches), which is
// what canon's overlays answer at the cost of what differs.

var titleLine = regexp.MustCompile(`(?m)^title: *"?(.*?)"?$`)

// anchor builds the Backlog.md repository from the items of repo and
// times backlog board export there (up to three runs while they take less
// than limit in all; a run past limit is stopped).
func anchor(backlog, repo, dir string, limit time.Duration) error {
	out, err := sh(repo, "git", "ls-files", "--", "*/items/*.md")
	if err != nil {
		return err
	}
	items := strings.Fields(out)
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if _, err := sh("", "git", "init", "-q", "-b", "main", dir); err != nil {
		return err
	}
	if *anchorN > 0 && len(items) > *anchorN {
		items = items[:*anchorN]
	}
	// The tasks are written and committed with git add (fast-import keeps
	// a folder's entries in a list: 100k in one folder, as Backlog.md
	// keeps them, is quadratic there); the branches with fast-import.
	cfg := "project_name: \"bench\"\ndefault_status: \"To Do\"\nstatuses: [\"To Do\", \"In Progress\", \"Done\"]\nlabels: []\n" +
		"date_format: yyyy-mm-dd\nremote_operations: false\nauto_commit: false\nfilesystem_only: false\n" +
		"check_active_branches: true\nactive_branch_days: 100000\ntask_prefix: \"task\"\n"
	if err := writeFile(dir, "backlog/config.yml", cfg); err != nil {
		return err
	}
	tasks := make([][2]string, len(items)) // path, content
	for i, f := range items {
		data, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			return err
		}
		title := fmt.Sprintf("Item %d", i+1)
		if m := titleLine.FindSubmatch(data); m != nil {
			title = strings.ReplaceAll(string(m[1]), `"`, "")
		}
		status := "To Do"
		if m := stateLine.Find(data); m != nil && strings.Contains(strings.ToLower(string(m)), "done") {
			status = "Done"
		}
		tasks[i] = backlogTask(i+1, title, status)
		if err := writeFile(dir, tasks[i][0], tasks[i][1]); err != nil {
			return err
		}
	}
	if _, err := sh(dir, "git", "add", "-A"); err != nil {
		return err
	}
	if _, err := sh(dir, "git", "-c", "user.name=Bench", "-c", "user.email=bench@canon.invalid", "commit", "-q", "-m", "backlog"); err != nil {
		return err
	}
	now := time.Now().Unix()
	var st bytes.Buffer
	for b := 0; b < *branches; b++ {
		msg := fmt.Sprintf("bench: b%d", b)
		fmt.Fprintf(&st, "commit refs/heads/b%d\ncommitter Bench <bench@canon.invalid> %d +0000\ndata %d\n%s\nfrom refs/heads/main^0\n", b, now, len(msg), msg)
		for _, t := range tasks[b**perDocs : (b+1)**perDocs] {
			c := strings.Replace(t[1], "status: To Do", "status: In Progress", 1)
			fmt.Fprintf(&st, "M 100644 inline %s\ndata %d\n%s\n", t[0], len(c), c)
		}
		st.WriteString("\n")
	}
	if err := fastImport(dir, &st); err != nil {
		return err
	}
	var took []time.Duration
	var spent time.Duration
	for i := 0; i < *runs && i < 3 && spent < limit; i++ { // minutes each: three runs at most, limit in all
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		cmd := exec.CommandContext(ctx, backlog, "board", "export", "board.md", "--force") // relative to dir
		cmd.Dir, cmd.Stdin = dir, nil
		t := time.Now()
		out, err := cmd.CombinedOutput()
		cancel()
		if ctx.Err() != nil {
			fmt.Printf("| Backlog.md board load across %d branches (%d tasks) | more than %s (stopped) | | |\n", *branches, len(items), limit)
			return nil
		}
		if err != nil {
			return fmt.Errorf("backlog board export: %w: %s", err, out)
		}
		took = append(took, time.Since(t))
		spent += took[len(took)-1]
	}
	fmt.Printf("| Backlog.md board load across %d branches (%d tasks) | %s | | |\n", *branches, len(items), median(took))
	return nil
}

func writeFile(dir, rel, content string) error {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(content), 0o644)
}

// backlogTask is task n in Backlog.md's layout: its path and content.
func backlogTask(n int, title, status string) [2]string {
	slug := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, title)
	if len(slug) > 40 {
		slug = slug[:40]
	}
	return [2]string{fmt.Sprintf("backlog/tasks/task-%d - %s.md", n, slug),
		fmt.Sprintf("---\nid: TASK-%d\ntitle: \"%s\"\nstatus: %s\nassignee: []\nlabels: []\ndependencies: []\n---\n\n## Description\n\n%s\n", n, title, status, title)}
}
