package clirun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/index/lazyre"
)

// Exit is an error that ends the program with Code. Msg is one plain
// sentence plus the fix; a Silent exit prints nothing (the command wrote
// its own output: canon verify finding differences, canon check finding
// errors).
type Exit struct {
	Code   int
	Msg    string
	Silent bool
}

func (e *Exit) Error() string {
	if e.Silent {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Msg
}

// Fail makes an error with an exit code and a message for a person.
func Fail(code int, format string, args ...any) error {
	return &Exit{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Quiet ends a command with code after it printed its own output.
func Quiet(code int) error { return &Exit{Code: code, Silent: true} }

// Run runs app with args (os.Args) and returns the exit status: 0, the
// code of an *Exit, else 1, with the error explained on stderr.
func Run(app *cli.App, args []string, stderr io.Writer, explain func(error) string) int {
	app.OnUsageError = usageError
	setUsageErrors(app.Commands)
	ctx, stop := stopOnSignal(stderr)
	defer stop()
	err := app.RunContext(ctx, Permute(app, args))
	if err == nil {
		return 0
	}
	code := 1
	var ex *Exit
	if errors.As(err, &ex) {
		if ex.Silent {
			return ex.Code
		}
		code = ex.Code
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
	if sub := unknownSubcommand(c.Command); sub != "" {
		// canon scope list --json: the command is what is missing, not the flag
		return Fail(2, "there is no command %q in %s; see %s --help", sub, name, name)
	}
	switch {
	case undefinedFlag.MatchString(msg):
		flag := undefinedFlag.FindStringSubmatch(msg)[1]
		msg = "there is no flag --" + flag
		if len(flag) == 1 && slices.Contains(os.Args, "-"+flag) {
			msg = "there is no flag -" + flag // as typed: canon search -x
		}
		if len(flag) > 1 && slices.Contains(os.Args, "-"+flag) {
			// canon search unsafe -trait: a word, meant as text.
			msg = "there is no flag -" + flag + " (an argument that starts with - is read as a flag; put arguments like it after --)"
		}
	case badFlagValue.MatchString(msg):
		m := badFlagValue.FindStringSubmatch(msg)
		msg = fmt.Sprintf("--%s %q is not a valid value", m[2], m[1])
		if strings.Contains(m[3], "parse") || strings.Contains(m[3], "syntax") {
			msg = fmt.Sprintf("--%s takes a number, not %q", m[2], m[1])
		}
	case missingValue.MatchString(msg):
		msg = "--" + missingValue.FindStringSubmatch(msg)[1] + " needs a value"
	}
	return Fail(2, "%s; see %s --help", msg, name)
}

// unknownSubcommand is the word given where cmd (a command with
// subcommands) wants one of them and none is named so: "list" of canon
// scope list. "" when cmd has none or the word names one.
func unknownSubcommand(cmd *cli.Command) string {
	if cmd == nil || len(cmd.Subcommands) == 0 {
		return ""
	}
	args := os.Args
	at := slices.Index(args, cmd.Name)
	if at < 0 {
		return ""
	}
	for _, a := range args[at+1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		for _, sc := range cmd.Subcommands {
			if a == sc.Name || slices.Contains(sc.Aliases, a) || a == "help" || a == "h" {
				return ""
			}
		}
		return a
	}
	return ""
}

// Permute moves a command's flags in front of its arguments, so that
// `canon search "token refresh" --limit 5` works as people type it (the
// flag parser stops at the first argument otherwise). The global -C DIR
// may come after the command too, and a command's --json before it
// (`canon --json status`, `canon status -C repo`): each is moved where
// the parser reads it.
func Permute(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	var globals, lifted, names []string
	i := 1
	// Global flags, and a command's --json written among them.
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		switch a := args[i]; {
		case isDirFlag(a) && i+1 < len(args):
			globals = append(globals, a, args[i+1])
			i++
		case isJSONFlag(a):
			lifted = append(lifted, a)
		default:
			globals = append(globals, a)
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
		names = append(names, args[i])
		i++
		cmds = cmd.Subcommands
	}
	if cmd == nil || cmd.SkipFlagParsing || !hasFlag(cmd, "json") {
		globals, lifted = append(globals, lifted...), nil // the parser says --json is no flag here
	}
	join := func(tail ...[]string) []string {
		out := append([]string{args[0]}, globals...)
		out = append(out, names...)
		for _, t := range tail {
			out = append(out, t...)
		}
		return out
	}
	if cmd == nil || cmd.SkipFlagParsing {
		return join(args[i:])
	}
	for _, a := range args[i:] {
		if a == "--" {
			break
		}
		if a == "--help" || a == "-h" {
			// canon search x --help: the command's help, not a help topic x.
			return join([]string{"--help"})
		}
	}
	valued := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			valued[n] = !isBool
		}
	}
	flags := lifted
	var rest []string
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if isDirFlag(a) && !hasFlag(cmd, "C") && i+1 < len(args) {
			globals = append(globals, a, args[i+1]) // canon status -C repo
			i++
			continue
		}
		if strings.HasPrefix(a, "-C=") && !hasFlag(cmd, "C") {
			globals = append(globals, a)
			continue
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
	if len(rest) > 0 {
		rest = append([]string{"--"}, rest...)
	}
	return join(flags, rest)
}

// isDirFlag is the global -C written with its value apart.
func isDirFlag(a string) bool { return a == "-C" || a == "--C" }

// isJSONFlag is --json (or -json, --json=true, --json=false).
func isJSONFlag(a string) bool {
	name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
	return name == "json" && strings.HasPrefix(a, "-")
}

// hasFlag reports whether cmd has a flag of that name.
func hasFlag(cmd *cli.Command, name string) bool {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// Direct runs fn with the signal handling Run gives a command, for an
// entry point that skips the command line's parsing (canon's post-*
// hooks, which git waits for after every commit and checkout).
func Direct(stderr io.Writer, fn func(ctx context.Context) int) int {
	ctx, stop := stopOnSignal(stderr)
	defer stop()
	return fn(ctx)
}

// Main runs the program's run function with os.Args and exits with its
// status. CANON_CPUPROFILE=FILE writes a CPU profile of the run, for
// performance reports.
func Main(run func(args []string, stdout, stderr io.Writer) int) {
	p := os.Getenv("CANON_CPUPROFILE")
	if p == "" {
		os.Exit(run(os.Args, os.Stdout, os.Stderr))
	}
	f, err := os.Create(p)
	if err != nil {
		fmt.Fprintf(os.Stderr, "canon: error: cannot write the CPU profile: %v\n", err)
		os.Exit(1)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "canon: error: cannot start the CPU profile: %v\n", err)
		os.Exit(1)
	}
	code := run(os.Args, os.Stdout, os.Stderr)
	pprof.StopCPUProfile()
	f.Close()
	os.Exit(code)
}
