package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Parts stay small (issue 42): a function is read whole, a file holds one
// purpose its name says.
const (
	maxFuncLines = 100
	maxFileLines = 800
)

// tooBig are the functions ("path.go: Func" or "path.go: Type.Method") and
// files ("path.go") allowed past the limits, each with the reason. A
// generated table may stay; anything else is work left, and leaves this
// list when it is done. Keep it short.
var tooBig = map[string]string{}

// TestFunctionsAndFilesStaySmall reads every Go file of the module but the
// tests and fails naming each function over maxFuncLines lines (from its
// func keyword to its closing brace) and each file over maxFileLines
// lines, unless tooBig allows it. An entry of tooBig that no longer
// applies fails too, so that the list only shrinks.
func TestFunctionsAndFilesStaySmall(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if path != root && isModule(path) {
				return filepath.SkipDir // another module (a benchmark's clone under scripts/out), as go skips it
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if ast.IsGenerated(f) {
			return nil // a generated table is as long as what it holds
		}
		if n := fset.File(f.Pos()).LineCount(); n > maxFileLines {
			seen[rel] = true
			if _, ok := tooBig[rel]; !ok {
				t.Errorf("%s has %d lines, over %d: split it into files whose names say what each holds", rel, n, maxFileLines)
			}
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			if n <= maxFuncLines {
				continue
			}
			key := rel + ": " + funcName(fd)
			seen[key] = true
			if _, ok := tooBig[key]; !ok {
				t.Errorf("%s has %d lines, over %d: split it into steps whose names say what each does", key, n, maxFuncLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var stale []string
	for k := range tooBig {
		if !seen[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(stale)
	for _, k := range stale {
		t.Errorf("tooBig allows %s, which is no longer too big (or no longer there): take it off the list", k)
	}
}

// funcName is a function's name, or a method's with its receiver's type
// ("writer.apply").
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ = x.X
			continue
		case *ast.IndexExpr: // a generic type's method
			typ = x.X
			continue
		case *ast.IndexListExpr:
			typ = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fd.Name.Name
		}
		return fmt.Sprintf("%T.%s", typ, fd.Name.Name)
	}
}

// isModule says whether dir holds a go.mod of its own.
func isModule(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, "go.mod"))
	return err == nil
}
