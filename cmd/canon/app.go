package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/hooks"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/lazyre"
)

// version is set by the build (-ldflags "-X main.version=...").
var version = "0.1.0-dev"

// exitError carries an exit code and a message already meant for a person.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// fail makes an error with an exit code; the message is one plain sentence
// plus the fix.
func fail(code int, format string, args ...any) error {
	return &exitError{code: code, msg: fmt.Sprintf(format, args...)}
}

// silentExit ends a command with a code after it has printed its own output
// (canon verify finding differences, canon check finding errors).
type silentExit struct{ code int }

func (e *silentExit) Error() string { return fmt.Sprintf("exit %d", e.code) }

// env is what every command gets: where to write, and the working folder.
type env struct {
	stdout, stderr io.Writer
	dir            string
	quiet          bool // in a hook or a pipe: no progress
}

var jsonFlag = &cli.BoolFlag{Name: "json", Usage: "print JSON (a stable, documented shape)"}

func run(args []string, stdout, stderr io.Writer) int {
	e := &env{stdout: stdout, stderr: stderr}
	if runPostHook(e, args) {
		return 0
	}
	app := newApp(e)
	setUsageErrors(app.Commands)
	ctx, stop := stopOnSignal(stderr)
	defer stop()
	err := app.RunContext(ctx, permute(app, args))
	if err == nil {
		return 0
	}
	var se *silentExit
	if errors.As(err, &se) {
		return se.code
	}
	code := 1
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	fmt.Fprintf(stderr, "canon: error: %s\n", explain(err))
	return code
}

// signalGrace is how long a command may take to stop after SIGINT or
// SIGTERM cancelled its context before canon exits anyway.
const signalGrace = 2 * time.Second

// stopOnSignal cancels the context on SIGINT or SIGTERM. Work that checks
// the context stops at once; anything that does not (a long parse, a
// query) gets signalGrace, or until a second signal, and then the process
// exits with 128+signal. That is safe: every write is a transaction that
// SQLite rolls back when its process dies, or a temp file renamed into
// place, so an exit loses only the unfinished step.
func stopOnSignal(stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	done := make(chan struct{})
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		var sig os.Signal
		select {
		case sig = <-sigs:
		case <-done:
			return
		}
		cancel()
		select {
		case <-sigs:
		case <-time.After(signalGrace):
		case <-done:
			return
		}
		fmt.Fprintf(stderr, "canon: stopped by %s; the unfinished step changed nothing\n", sig)
		code := 130
		if sig == syscall.SIGTERM {
			code = 143
		}
		os.Exit(code)
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// explain turns known conditions into sentences with the fix. SQLite's
// errors are classified first (index.Explain: a damaged index, one canon
// may not write), with the index's path when the repository is known.
func explain(err error) string {
	var ee *exitError
	var le *index.LockedError
	var ce *config.Error
	var pe *fs.PathError
	err = index.Explain(err, indexPathHint)
	switch {
	case errors.As(err, &ee):
		return ee.msg
	case errors.Is(err, gitsync.ErrNotRepo):
		return "not inside a git working tree; run canon inside a repository (or git init first)"
	case errors.As(err, &le):
		return le.Error() + "; wait for it to finish, or stop it, then retry"
	case errors.As(err, &ce):
		return "the configuration has an error: " + ce.Error() + "; fix the file and retry"
	case errors.Is(err, context.Canceled):
		return "interrupted; nothing was changed by the unfinished step"
	case errors.Is(err, index.ErrBadQuery):
		return err.Error() + "; search for words, \"a phrase\" or a prefix*"
	case errors.Is(err, index.ErrDamaged):
		return err.Error()
	case errors.As(err, &pe) && errors.Is(err, fs.ErrPermission):
		return fmt.Sprintf("canon may not %s %s (permission denied): check who owns it (ls -ld %s) and run canon as that user, or fix its permissions", pe.Op, pe.Path, pe.Path)
	}
	return err.Error()
}

// indexPathHint is the index of the repository canon runs in, for error
// messages; set when a session opens.
var indexPathHint string

func newApp(e *env) *cli.App {
	return &cli.App{
		Name:    "canon",
		Usage:   "keep a searchable index and graph of Markdown backlogs, ADRs and notes in step with git",
		Version: version,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "C", Usage: "run as if canon was started in `DIR`", Value: "."},
		},
		Before: func(c *cli.Context) error {
			e.dir = c.String("C")
			e.quiet = !isTerminal(e.stderr)
			return nil
		},
		Writer:          e.stdout,
		ErrWriter:       e.stderr,
		HideHelpCommand: true,
		OnUsageError:    usageError,
		ExitErrHandler:  func(*cli.Context, error) {}, // run() prints errors
		Commands: []*cli.Command{
			initCommand(e),
			indexCommand(e),
			statusCommand(e),
			searchCommand(e),
			showCommand(e),
			problemsCommand(e),
			checkCommand(e),
			syncCommand(e),
			watchCommand(e),
			verifyCommand(e),
			hooksCommand(e),
			hookCommand(e),
			graphCommand(e),
			contextCommand(e),
			scopeCommand(e),
			readyCommand(e),
			blockedCommand(e),
			queryCommand(e),
			worksetCommand(e),
			promoteCommand(e),
			mcpCommand(e),
			agentsCommand(e),
		},
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(e.stderr, "canon: error: there is no command %q; run canon --help for the list\n", name)
			os.Exit(2)
		},
	}
}

// setUsageErrors makes a bad flag on any command (unknown, missing its
// value, a value of the wrong kind) one sentence and exit status 2, as on
// the top level; urfave/cli prints a help page and exits 1 otherwise.
func setUsageErrors(cmds []*cli.Command) {
	for _, c := range cmds {
		if c.OnUsageError == nil {
			c.OnUsageError = usageError
		}
		setUsageErrors(c.Subcommands)
	}
}

var (
	undefinedFlag = lazyre.MustCompile(`^flag provided but not defined: -+(.+)$`)
	badFlagValue  = lazyre.MustCompile(`^invalid value "(.*)" for flag -+([^:]+): (.*)$`)
	missingValue  = lazyre.MustCompile(`^flag needs an argument: -+(.+)$`)
)

func usageError(c *cli.Context, err error, _ bool) error {
	var names []string
	for _, ctx := range c.Lineage() {
		if ctx.Command != nil && ctx.Command.Name != "" && ctx.Command.Name != "canon" && (len(names) == 0 || names[0] != ctx.Command.Name) {
			names = append([]string{ctx.Command.Name}, names...)
		}
	}
	name := strings.Join(append([]string{"canon"}, names...), " ")
	msg := err.Error()
	switch {
	case undefinedFlag.MatchString(msg):
		msg = "there is no flag --" + undefinedFlag.FindStringSubmatch(msg)[1]
	case badFlagValue.MatchString(msg):
		m := badFlagValue.FindStringSubmatch(msg)
		msg = fmt.Sprintf("--%s %q is not a valid value", m[2], m[1])
		if strings.Contains(m[3], "parse") || strings.Contains(m[3], "syntax") {
			msg = fmt.Sprintf("--%s takes a number, not %q", m[2], m[1])
		}
	case missingValue.MatchString(msg):
		msg = "--" + missingValue.FindStringSubmatch(msg)[1] + " needs a value"
	}
	return fail(2, "%s; see %s --help", msg, name)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// open starts a session in the working folder and catches up with HEAD, so
// the command answers for the commit it is on.
func (e *env) open(c *cli.Context, who string) (*gitsync.Session, error) {
	s, err := e.openNoSync(who)
	if err != nil {
		return nil, err
	}
	res, err := s.CatchUp(c.Context)
	if err != nil {
		s.Close()
		return nil, err
	}
	if res.Action == gitsync.ActionRebuild && res.Reason == "" && res.Stats != nil {
		e.notef("built the index: %d documents", res.Stats.Documents)
	}
	return s, nil
}

func (e *env) openNoSync(who string) (*gitsync.Session, error) {
	s, err := gitsync.Open(e.dir, who)
	if err != nil {
		if r, derr := gitsync.Discover(e.dir); derr == nil {
			indexPathHint = relIndexPath(r)
		}
		return nil, err
	}
	indexPathHint = relIndexPath(s.Repo)
	s.Note = func(msg string) { e.notef("%s", msg) }
	// Every sync this session makes goes to the worksets (DESIGN.md §8).
	s.OnSync(hooks.TellWorksets(func(msg string) { e.notef("%s", msg) }, nil))
	if !e.quiet {
		s.Progress = e.progress
	}
	return s, nil
}

func (e *env) notef(format string, args ...any) {
	fmt.Fprintf(e.stderr, "canon: "+format+"\n", args...)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// permute moves a command's flags in front of its arguments, so that
// `canon search "token refresh" --limit 5` works as people type it (the
// flag parser stops at the first argument otherwise).
func permute(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	i := 1
	// Global flags.
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		out = append(out, args[i])
		if (args[i] == "-C" || args[i] == "--C") && i+1 < len(args) {
			i++
			out = append(out, args[i])
		}
		i++
	}
	cmds := app.Commands
	var cmd *cli.Command
	for i < len(args) {
		next := findCommand(cmds, args[i])
		if next == nil {
			break
		}
		cmd = next
		out = append(out, args[i])
		i++
		cmds = cmd.Subcommands
	}
	if cmd == nil || cmd.SkipFlagParsing {
		return append(out, args[i:]...)
	}
	for _, a := range args[i:] {
		if a == "--" {
			break
		}
		if a == "--help" || a == "-h" {
			// canon search x --help: the command's help, not a help topic x.
			return append(out, "--help")
		}
	}
	valued := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			valued[n] = !isBool
		}
	}
	var flags, rest []string
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && valued[name] && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
			continue
		}
		rest = append(rest, a)
	}
	out = append(out, flags...)
	if len(rest) > 0 {
		out = append(out, "--")
		out = append(out, rest...)
	}
	return out
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// relIndexPath shows the index path relative to the working tree when it is
// inside it (.git/canon/index.db).
func relIndexPath(r *gitsync.Repo) string {
	p := r.IndexPath()
	if rel, err := filepath.Rel(r.Root, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return p
}
