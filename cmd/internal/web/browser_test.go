package web

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/indextest/citool"
	"github.com/canon-md/canon/index/indextest/hang"
)

// hostileTask is a work item of the example written to run code in the
// page: were any of it to run, the title or window.pwned would say so.
const hostileTask = `---
id: KB-TSK-0999
type: Task
title: "</title><script>window.pwned=1;document.title='pwned'</script>"
state: Proposed
parent: KB-USR-0006
---
# Hostile <script>window.pwned=2;document.title='pwned'</script>

<script>window.pwned=3;document.title='pwned'</script>
<img src=x onerror="window.pwned=4;document.title='pwned'">
<svg onload="window.pwned=5;document.title='pwned'"><circle r="3"/></svg>
[click me](javascript:window.pwned=6)
<a id="raw" href="javascript:window.pwned=7">raw</a>
`

// chromium finds Debian's Chromium (or another Chrome) to drive.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	citool.Need(t, "no Chromium to drive (apt-get install chromium); .ci/run installs it")
	return ""
}

// TestBrowser drives headless Chromium against the bundled example: the
// board shows the example's items in their state columns, an item page
// draws its text and picture, a hostile document runs nothing, a commit
// on another worktree puts a badge on a card without a reload, and the
// keyboard moves between cards.
func TestBrowser(t *testing.T) {
	exe := chromium(t)
	if testing.Short() {
		t.Skip("drives a browser")
	}
	t.Setenv("CANON_NOW", "2026-11-28T10:00:00Z")
	srv, dir, base := exampleServer(t, hostileTask)
	want := boardCards(t, srv)
	ctx := browser(t, exe)
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	do("the board", chromedp.Navigate(base+"/?token="+testToken), chromedp.WaitVisible(chromedp.CSS(".column")))
	got := value(ctx, t, "the cards", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".column")).flatMap(c => Array.from(c.querySelectorAll(".card")).map(k => c.dataset.state + " " + k.dataset.id))`))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the board shows\n%s\nthe use case says\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if b := value(ctx, t, "a blocked card", chromedp.Text(chromedp.CSS(`.column[data-state="Planned"] li[data-id="KB-TSK-0013"] .badge.blocked`))); !strings.Contains(b, "KB-TSK-0012") {
		t.Errorf("KB-TSK-0013's badge: %q", b)
	}

	do("an item page", chromedp.Navigate(base+"/item?ref=KB-TSK-0013"), chromedp.WaitVisible(chromedp.CSS("svg.graph")))
	h1 := value(ctx, t, "its heading", chromedp.Text(chromedp.CSS("h1")))
	boxes := value(ctx, t, "its picture", chromedp.Evaluate[int](`document.querySelectorAll("svg.graph .node").length`))
	if !strings.Contains(h1, "Debounce and cache address lookups") || boxes < 3 {
		t.Errorf("the item page: %q with %d boxes", h1, boxes)
	}

	do("the hostile item", chromedp.Navigate(base+"/item?ref=KB-TSK-0999"), chromedp.WaitVisible(chromedp.CSS(".markdown")))
	title := value(ctx, t, "its title", chromedp.Title())
	pwned := value(ctx, t, "window.pwned", chromedp.Evaluate[bool](`window.pwned !== undefined`))
	if pwned || title != "KB-TSK-0999 </title><script>window.pwned=1;document.title='pwned'</script> · canon" {
		t.Errorf("a hostile document ran: title %q, window.pwned set: %v", title, pwned)
	}

	// j focuses the first card; a commit on another worktree puts a badge
	// on its card while the page stays (no reload: a mark set on the
	// window survives).
	do("the keyboard", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#live.on")), chromedp.KeyEvent("j"),
		chromedp.Evaluate[chromedp.Void](`window.stayed = true`))
	if id := value(ctx, t, "the focus", chromedp.Evaluate[string](`(document.activeElement.closest(".card") || {dataset: {}}).dataset.id || ""`)); id != strings.Fields(want[0])[1] {
		t.Errorf("j focused %q", id)
	}
	moveByKeyboard(ctx, t, dir, strings.Fields(want[0])[1], strings.Fields(want[0])[0], "Review")
	commitElsewhere(t, dir)
	do("the live badge", chromedp.WaitVisible(chromedp.CSS(`li[data-id="KB-TSK-0011"] .badge.claim`)))
	badge := value(ctx, t, "the badge", chromedp.Text(chromedp.CSS(`li[data-id="KB-TSK-0011"] .badge.claim`)))
	if !strings.Contains(badge, "InProgress on") || !strings.Contains(badge, "agent-a") {
		t.Errorf("the badge: %q", badge)
	}
	if !value(ctx, t, "the mark", chromedp.Evaluate[bool](`window.stayed === true`)) {
		t.Error("the page reloaded")
	}

	// Dragging the moved card onto its first column moves it back.
	id, from := strings.Fields(want[0])[1], strings.Fields(want[0])[0]
	value(ctx, t, "a drag", chromedp.Evaluate[bool](fmt.Sprintf(`(function () {
		var card = document.querySelector('li[data-id=%q]'), col = document.querySelector('.column[data-state=%q]'), dt = new DataTransfer();
		card.dispatchEvent(new DragEvent("dragstart", {bubbles: true, dataTransfer: dt}));
		col.dispatchEvent(new DragEvent("dragover", {bubbles: true, cancelable: true, dataTransfer: dt}));
		col.dispatchEvent(new DragEvent("drop", {bubbles: true, cancelable: true, dataTransfer: dt}));
		card.dispatchEvent(new DragEvent("dragend", {bubbles: true, dataTransfer: dt}));
		return true;
	})()`, id, from)))
	do("the dropped card", chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`.column[data-state=%q] li[data-id=%q]`, from, id))))
	if n := value(ctx, t, "the notice", chromedp.Text(chromedp.CSS("#notice"))); !strings.Contains(n, id+": state → "+from) {
		t.Errorf("the notice after the drop: %q", n)
	}
}

// moveByKeyboard moves the focused card, id in state from, to state to
// with the keyboard alone (m opens its menu, the arrows choose, Enter
// moves), and checks that the page follows without a reload and that the
// item's file changed by its state line and its updated date alone.
func moveByKeyboard(ctx context.Context, t *testing.T, dir, id, from, to string) {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "_kano/backlog/products/*/items/*/*/"+id+"_*.md"))
	if err != nil || len(m) != 1 {
		t.Fatalf("%s: %d files: %v", id, len(m), err)
	}
	path := m[0]
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent("m"), chromedp.WaitVisible(chromedp.CSS("#move-menu"))); err != nil {
		t.Fatalf("the move menu: %v", err)
	}
	for i := 0; ; i++ {
		st := value(ctx, t, "the menu's focus", chromedp.Evaluate[string](`document.activeElement.dataset.state || ""`))
		if st == to {
			break
		}
		if i > 20 {
			t.Fatalf("the arrows never reach %s (at %q)", to, st)
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowDown)); err != nil {
			t.Fatal(err)
		}
	}
	card := fmt.Sprintf(`.column[data-state=%q] li[data-id=%q]`, to, id)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(chromedp.CSS(card)), chromedp.WaitVisible(chromedp.CSS("#notice"))); err != nil {
		t.Fatalf("the card does not reach %s: %v", to, err)
	}
	if n := value(ctx, t, "the notice", chromedp.Text(chromedp.CSS("#notice"))); !strings.Contains(n, id+": state → "+to) {
		t.Errorf("the notice: %q", n)
	}
	if !value(ctx, t, "the mark", chromedp.Evaluate[bool](`window.stayed === true`)) {
		t.Error("the page reloaded")
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(string(before), "\nstate: "+from+"\n", "\nstate: "+to+"\n", 1)
	want = regexp.MustCompile(`(?m)^updated: .*$`).ReplaceAllString(want, "updated: 2026-11-28")
	if string(after) != want {
		t.Errorf("the move wrote\n%s\nwant\n%s", after, want)
	}
}

// value runs an action that answers, or fails the test.
func value[T any](ctx context.Context, t *testing.T, what string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// commitElsewhere takes KB-TSK-0011 (Proposed → InProgress) in a commit
// on another worktree's branch.
func commitElsewhere(t *testing.T, dir string) {
	t.Helper()
	wt := filepath.Join(t.TempDir(), "agent-a")
	gitIn(t, dir, "worktree", "add", "-q", "-b", "agent-a", wt)
	rel := "_kano/backlog/products/checkout/items/task/0000/KB-TSK-0011_refund-timeline-in-order-history.md"
	data, err := os.ReadFile(filepath.Join(wt, rel))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, wt, rel, strings.Replace(string(data), "state: Proposed", "state: InProgress", 1))
	gitIn(t, wt, "commit", "-qam", "take KB-TSK-0011")
}

// exampleServer serves a repository of the bundled example, with extra
// as one more task when given; the server, the repository and the base
// URL.
func exampleServer(t *testing.T, extra string) (*Server, string, string) {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-r", "../../../testdata/example/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("copy the example: %v\n%s", err, out)
	}
	if extra != "" {
		writeFile(t, dir, "_kano/backlog/products/checkout/items/task/0000/KB-TSK-0999_hostile.md", extra)
	}
	gitIn(t, dir, "init", "-q", "-b", "main")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-qm", "example")
	srv, err := New(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv, dir, serveForTest(t, srv)
}

// browser starts headless Chromium for the test; its context.
func browser(t *testing.T, exe string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.Flag("headless", true))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses its sandbox to root
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 2*hang.Limit)
	t.Cleanup(cancel)
	return ctx
}

// TestScreenshots writes the README's pictures of the board and of an
// item's page (docs/images), when CANON_SCREENSHOTS=1 asks for them.
func TestScreenshots(t *testing.T) {
	if os.Getenv("CANON_SCREENSHOTS") != "1" {
		t.Skip("CANON_SCREENSHOTS=1 writes docs/images/serve-*.png")
	}
	srv, _, base := exampleServer(t, "")
	_ = srv
	ctx := browser(t, chromium(t))
	for _, shot := range []struct{ file, path, wait string }{
		{"serve-board.png", "/?token=" + testToken, ".column"},
		{"serve-item.png", "/item?ref=KB-TSK-0013", "svg.graph"},
	} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1400, 900), chromedp.Navigate(base+shot.path), chromedp.WaitVisible(chromedp.CSS(shot.wait)),
			chromedp.WaitVisible(chromedp.CSS("#live.on"))); err != nil {
			t.Fatal(err)
		}
		png := value(ctx, t, shot.file, chromedp.CaptureScreenshot())
		if err := os.WriteFile(filepath.Join("../../../docs/images", shot.file), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// serveForTest serves srv on a loopback port until the test ends; its
// base URL.
func serveForTest(t *testing.T, srv *Server) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- srv.Serve(ctx, Options{Addr: "127.0.0.1:0", Token: testToken, Ready: func(a string) { ready <- a }})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	select {
	case a := <-ready:
		return "http://" + a
	case err := <-done:
		t.Fatal(err)
	}
	return ""
}

// boardCards is what the board's use case says: "STATE ID" per card, in
// the order of the page (column by column).
func boardCards(t *testing.T, srv *Server) []string {
	t.Helper()
	var out []string
	_, err := srv.call(context.Background(), func(ctx context.Context, s *gitsync.Session, f Fresh) error {
		base, err := srv.base(ctx, s, f)
		if err != nil {
			return err
		}
		b, err := boardOf(ctx, s, base, Filter{})
		if err != nil {
			return err
		}
		for _, c := range b.Columns {
			for _, k := range c.Cards {
				out = append(out, fmt.Sprintf("%s %s", c.State, k.ID))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 10 {
		t.Fatalf("the example's board has %d cards", len(out))
	}
	return out
}
