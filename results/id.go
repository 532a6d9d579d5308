package results

import (
	"crypto/rand"
	"encoding/hex"
)

// idBytes is the size of a measurement's ID, in bytes.
const idBytes = 16

// NewID draws the ID of a new measurement (File.ID).
func NewID() string {
	b := make([]byte, idBytes)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	return hex.EncodeToString(b)
}

// validID reports whether id is empty or an ID NewID could draw.
func validID(id string) bool {
	if id == "" {
		return true
	}
	if len(id) != 2*idBytes {
		return false
	}
	for _, c := range id {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
