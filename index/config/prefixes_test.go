package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestPrefixes(t *testing.T) {
	t.Parallel()
	c, err := Parse("c.yaml", []byte("prefixes: {Task: BACK}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"task": "back"}; !reflect.DeepEqual(c.Prefixes, want) {
		t.Fatalf("prefixes = %v, want %v", c.Prefixes, want)
	}
	if c.IndexHash() == Default().IndexHash() {
		t.Fatal("prefixes shape the index: the hash must change")
	}
	for in, msg := range map[string]string{
		"prefixes: {task: task}\n":            "task maps to itself",
		"prefixes: {task: back, back: b}\n":   "maps further",
		"prefixes: {\"ta sk\": back}\n":       "is not an id prefix",
		"prefixes: {task: \"-\"}\n":           "is not an id prefix",
		"learned: {prefixes: {task: task}}\n": "learned.prefixes: task maps to itself",
	} {
		if _, err := Parse("c.yaml", []byte(in)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: err = %v, want %q", in, err, msg)
		}
	}
	var many strings.Builder
	many.WriteString("prefixes:\n")
	for i := 0; i <= MaxPrefixes; i++ {
		many.WriteString("  p" + strings.Repeat("x", i) + ": back\n")
	}
	if _, err := Parse("c.yaml", []byte(many.String())); err == nil || !strings.Contains(err.Error(), "prefixes maps 17 prefixes; at most 16 are read") {
		t.Errorf("17 prefixes: err = %v", err)
	}
	if c, err := Parse("c.yaml", []byte("prefixes: {KB-TSK: KCCS-TSK}\n")); err != nil || c.Prefixes["kb-tsk"] != "kccs-tsk" {
		t.Errorf("a prefix with a dash: %v, %v", c, err)
	}
	// The learned block holds where the file says nothing.
	c, err = Parse("c.yaml", []byte("learned: {prefixes: {task: back}}\n"))
	if err != nil || c.Prefixes["task"] != "back" {
		t.Fatalf("learned prefixes = %v, %v", c.Prefixes, err)
	}
	c, err = Parse("c.yaml", []byte("prefixes: {}\nlearned: {prefixes: {task: back}}\n"))
	if err != nil || len(c.Prefixes) != 0 {
		t.Fatalf("the file's prefixes win over the learned ones: %v, %v", c.Prefixes, err)
	}
}

func TestBareNumbers(t *testing.T) {
	t.Parallel()
	c, err := Parse("c.yaml", []byte("bare_numbers: [EIP, eip, erc]\n"))
	if err != nil || !reflect.DeepEqual(c.BareNumbers, []string{"eip", "erc"}) {
		t.Fatalf("bare_numbers = %v, %v", c.BareNumbers, err)
	}
	if c.IndexHash() == Default().IndexHash() {
		t.Error("bare_numbers shape the index: its hash must change")
	}
	if _, err := Parse("c.yaml", []byte("bare_numbers: [eip-]\n")); err == nil || !strings.Contains(err.Error(), "is not an id prefix") {
		t.Errorf("a bad prefix: %v", err)
	}
	if _, err := Parse("c.yaml", []byte("learned:\n  bare_numbers: ['1x']\n")); err == nil || !strings.Contains(err.Error(), "learned.bare_numbers") {
		t.Errorf("a bad learned prefix: %v", err)
	}
}
