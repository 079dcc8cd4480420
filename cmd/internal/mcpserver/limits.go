package mcpserver

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/search"
)

// Every argument of every tool is bounded before the call, so that no
// call's work grows with what an agent (or a prompt injected into one)
// sends: one check of the same path 100,000 times ran the server out of
// memory, and a search of 64k words took minutes while the other clients
// waited.
const (
	// maxListItems bounds every list (paths, seeds, edges, kinds), after
	// its repeats are dropped: check lays the files it names over the
	// index at once (gitsync.MaxCheckPaths), and a context pack's budget
	// holds far fewer seeds.
	maxListItems = gitsync.MaxCheckPaths
	// maxArgBytes bounds every text: a note is a few sentences, a name
	// or a reference a line.
	maxArgBytes = 64 << 10
)

// bound checks the arguments in (a pointer to a tool's input struct):
// lists lose their repeats and hold at most maxListItems, texts at most
// maxArgBytes, a query at most search.MaxQueryWords words. What is past a
// bound is JSON-RPC's invalid params, saying which argument and its limit.
func bound(in any) error {
	v := reflect.ValueOf(in).Elem()
	for i := range v.NumField() {
		f, fv := v.Type().Field(i), v.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if err := boundField(name, fv); err != nil {
			return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
	}
	return nil
}

func boundField(name string, fv reflect.Value) error {
	switch fv.Kind() {
	case reflect.String:
		s := fv.String()
		if len(s) > maxArgBytes {
			return fmt.Errorf("%s is %d bytes; at most %d are taken", name, len(s), maxArgBytes)
		}
		if name == "query" && s != "" {
			if _, err := search.FTSQuery(s); errors.Is(err, search.ErrLongQuery) {
				return fmt.Errorf("query: %s", strings.TrimPrefix(err.Error(), index.ErrBadQuery.Error()+": "))
			}
		}
	case reflect.Slice:
		list, ok := fv.Interface().([]string)
		if !ok {
			return nil
		}
		list = gitsync.Distinct(list)
		if len(list) > maxListItems {
			return fmt.Errorf("%s names %d distinct items; at most %d are taken%s", name, len(list), maxListItems, moreThan[name])
		}
		for _, s := range list {
			if len(s) > maxArgBytes {
				return fmt.Errorf("an item of %s is %d bytes; at most %d are taken", name, len(s), maxArgBytes)
			}
		}
		fv.Set(reflect.ValueOf(list))
	}
	return nil
}

// moreThan says what to do instead of naming that many.
var moreThan = map[string]string{
	"paths": "; check every document with all: true",
}
