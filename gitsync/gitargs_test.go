package gitsync

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestGitArgumentsEndOptions reads every git invocation in canon's source
// and fails on a value that git could take for an option: every argument
// that is not a literal must come after "--end-of-options" or "--", or be
// glued to its option ("--grep="+id). A workset manifest that said
// head = --output=FILE once made git log write a file the repository's
// author named (ADR-0029); this test keeps the next such value out.
//
// Git invocations are calls of exec.Command(Context) whose command is
// "git", and calls of methods or fields named Git, GitEnv, GitText and
// GitStream. Arguments passed as a slice (args...) are followed to the
// slice's literal and the appends to it in the same function. scripts/ is
// left out (benchmarks that run on repositories their user chose), and so
// are the test-support packages index/indextest and index/planguard.
func TestGitArgumentsEndOptions(t *testing.T) {
	root := ".."
	fset := token.NewFileSet()
	var calls int
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "scripts", "testdata", ".git", "bin", "node_modules",
				"indextest", "planguard": // test support: runs only in tests, on repositories they made
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, fn := range f.Decls {
			fd, ok := fn.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				args, ok := gitArgs(call)
				if !ok {
					return true
				}
				calls++
				where := fset.Position(call.Pos()).String()
				if forwards(fd) {
					return true // the runners themselves pass their callers' arguments on
				}
				list, err := expand(fd, args)
				if err != "" {
					t.Errorf("%s: %s", where, err)
					return true
				}
				if bad := firstOpenValue(list); bad != nil {
					t.Errorf("%s: git argument %s can be read as an option: put it after \"--end-of-options\" (or \"--\" for paths), or glue it to its option", where, render(fset, bad))
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 15 {
		t.Fatalf("found %d git invocations; the test no longer recognises how canon runs git", calls)
	}
}

// gitArgs returns the arguments of call that go to git, when it runs git.
func gitArgs(call *ast.CallExpr) ([]ast.Expr, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	switch sel.Sel.Name {
	case "Command", "CommandContext":
		if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "exec" {
			return nil, false
		}
		for i, a := range call.Args {
			if lit, ok := a.(*ast.BasicLit); ok && lit.Value == `"git"` {
				return call.Args[i+1:], true
			}
		}
		return nil, false
	case "Git", "GitText":
		return call.Args[1:], len(call.Args) > 1
	case "GitEnv":
		return call.Args[2:], len(call.Args) > 2
	case "GitStream":
		if len(call.Args) != 3 {
			return nil, false
		}
		return []ast.Expr{&spread{call.Args[1]}}, true
	}
	return nil, false
}

// spread stands for a slice handed over whole (GitStream's args).
type spread struct{ ast.Expr }

// forwards reports the functions that run git for others.
func forwards(fd *ast.FuncDecl) bool {
	if fd.Recv == nil {
		return false
	}
	switch fd.Name.Name {
	case "Git", "GitEnv", "GitText", "GitStream":
		return true
	}
	return false
}

// expand turns the arguments into the list git receives, following a
// slice passed with ... to where the function builds it.
func expand(fd *ast.FuncDecl, args []ast.Expr) ([]ast.Expr, string) {
	var out []ast.Expr
	for i, a := range args {
		var slice ast.Expr
		if s, ok := a.(*spread); ok {
			slice = s.Expr
		} else if i == len(args)-1 && isEllipsisArg(fd, a) {
			slice = a
		}
		if slice == nil {
			out = append(out, a)
			continue
		}
		elems, err := sliceElems(fd, slice)
		if err != "" {
			return nil, err
		}
		out = append(out, elems...)
	}
	return out, ""
}

// isEllipsisArg reports an argument written as x... (the parser keeps the
// ellipsis on the call, so look for it there).
func isEllipsisArg(fd *ast.FuncDecl, a ast.Expr) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && c.Ellipsis.IsValid() && len(c.Args) > 0 && c.Args[len(c.Args)-1] == a {
			found = true
		}
		return !found
	})
	return found
}

// sliceElems lists a slice's elements: a literal, an append to one, or a
// variable the function sets from a literal and appends to.
func sliceElems(fd *ast.FuncDecl, e ast.Expr) ([]ast.Expr, string) {
	switch x := e.(type) {
	case *ast.CompositeLit:
		return x.Elts, ""
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "append" && len(x.Args) > 0 {
			head, err := sliceElems(fd, x.Args[0])
			if err != "" {
				return nil, err
			}
			return append(head, x.Args[1:]...), ""
		}
	case *ast.Ident:
		var elems []ast.Expr
		set := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return true
			}
			if id, ok := as.Lhs[0].(*ast.Ident); !ok || id.Name != x.Name {
				return true
			}
			switch r := as.Rhs[0].(type) {
			case *ast.CompositeLit:
				elems, set = append(elems, r.Elts...), true
			case *ast.CallExpr:
				if id, ok := r.Fun.(*ast.Ident); ok && id.Name == "append" {
					elems = append(elems, r.Args[1:]...)
				}
			}
			return true
		})
		if set {
			return elems, ""
		}
	}
	return nil, "git's arguments come from a slice this test cannot follow; build it as a literal (and appends) in the same function"
}

// optionsWithValue take the next argument as their value.
var optionsWithValue = map[string]bool{"-C": true}

// firstOpenValue returns the first argument that is neither a literal nor
// glued to an option, before the end of git's options.
func firstOpenValue(args []ast.Expr) ast.Expr {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if s, ok := literal(a); ok {
			if s == "--end-of-options" || s == "--" {
				return nil
			}
			if optionsWithValue[s] {
				i++ // -C DIR: the folder, not an option
			}
			continue
		}
		if glued(a) {
			continue
		}
		return a
	}
	return nil
}

func literal(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// glued reports "--opt=" + value and fmt.Sprintf("--opt=%d", n): a value
// that is part of its option's argument.
func glued(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.BinaryExpr:
		s, ok := literal(x.X)
		return ok && x.Op == token.ADD && strings.HasPrefix(s, "-") && strings.HasSuffix(s, "=")
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && len(x.Args) > 0 {
			s, ok := literal(x.Args[0])
			return ok && strings.HasPrefix(s, "-") && strings.Contains(s, "=")
		}
	}
	return false
}

func render(fset *token.FileSet, e ast.Expr) string {
	var b strings.Builder
	if err := printNode(&b, fset, e); err != nil {
		return "?"
	}
	return b.String()
}

func printNode(b *strings.Builder, fset *token.FileSet, e ast.Expr) error {
	start, end := fset.Position(e.Pos()), fset.Position(e.End())
	data, err := os.ReadFile(start.Filename)
	if err != nil {
		return err
	}
	b.Write(data[start.Offset:end.Offset])
	return nil
}
