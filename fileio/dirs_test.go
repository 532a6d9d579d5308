package fileio

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCreatableDir(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	file := filepath.Join(tmp, "package.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, dir, want string // want: "" for no error
	}{
		{"an existing folder", tmp, ""},
		{"a folder to create", filepath.Join(tmp, "a", "b"), ""},
		{"a file", file, "cannot write into the folder " + file + ": " + file + " is not a folder"},
		{"under a file", filepath.Join(file, "b"), "cannot create the folder " + filepath.Join(file, "b") + ": " + file + " is not a folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CreatableDir(tt.dir)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
	entries, _ := os.ReadDir(tmp)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d entries, want only package.json: the check leaves nothing behind", len(entries))
	}
}
