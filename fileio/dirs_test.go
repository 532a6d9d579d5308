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

// TestWritableDirRefusesAReadOnlyFolder: a folder that exists but takes no
// file is refused before anything runs (a read-only folder: chmod 0555 for
// a user, /sys for root, whom permissions do not stop), and the check
// leaves nothing behind in a folder that takes one.
func TestWritableDirRefusesAReadOnlyFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := WritableDir(filepath.Join(dir, "results.json")); err != nil {
		t.Fatalf("a writable folder: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the check left %d entries behind", len(entries))
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		if _, err := os.Stat("/sys"); err != nil {
			t.Skip("root, and no /sys: no read-only folder to try")
		}
		ro = "/sys"
	}
	err := WritableDir(filepath.Join(ro, "results.json"))
	if err == nil || !strings.Contains(err.Error(), "folder "+ro+" takes no new file") {
		t.Errorf("a read-only folder: %v; want it refused", err)
	}
}
