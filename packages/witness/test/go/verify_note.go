// An independent check of our signed checkpoints and cosignatures with Go's
// golang.org/x/mod/sumdb/note, the signed-note implementation the Go module
// checksum database uses. It reads a JSON object from stdin:
//
//	{"log_vkey": "...", "witness_vkey": "...", "note": "..."}
//
// opens the note with an Ed25519 verifier for the log's vkey (x/mod's own)
// and a cosignature/v1 verifier for the witness's vkey (written here from
// c2sp.org/tlog-cosignature v1.0.1, since x/mod knows only type 0x01), and
// prints the verified signatures' names and cosignature timestamps as JSON.
// Exit status 1 when the note does not verify.
package main

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
)

type input struct {
	LogVkey     string `json:"log_vkey"`
	WitnessVkey string `json:"witness_vkey"`
	Note        string `json:"note"`
}

type cosignatureVerifier struct {
	name string
	hash uint32
	key  ed25519.PublicKey
}

func (v *cosignatureVerifier) Name() string    { return v.name }
func (v *cosignatureVerifier) KeyHash() uint32 { return v.hash }
func (v *cosignatureVerifier) Verify(msg, sig []byte) bool {
	if len(sig) != 8+ed25519.SignatureSize {
		return false
	}
	timestamp := binary.BigEndian.Uint64(sig[:8])
	signed := append([]byte("cosignature/v1\ntime "+strconv.FormatUint(timestamp, 10)+"\n"), msg...)
	return ed25519.Verify(v.key, signed, sig[8:])
}

func newCosignatureVerifier(vkey string) (*cosignatureVerifier, error) {
	parts := strings.SplitN(vkey, "+", 3)
	if len(parts) != 3 {
		return nil, fmt.Errorf("malformed vkey %q", vkey)
	}
	hash, err := strconv.ParseUint(parts[1], 16, 32)
	if err != nil {
		return nil, err
	}
	material, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(material) != 1+ed25519.PublicKeySize || material[0] != 0x04 {
		return nil, fmt.Errorf("vkey %q is not a cosignature/v1 Ed25519 key", vkey)
	}
	digest := sha256.Sum256(append([]byte(parts[0]+"\n"), material...))
	if binary.BigEndian.Uint32(digest[:4]) != uint32(hash) {
		return nil, fmt.Errorf("vkey %q has key hash %s, its key gives %x", vkey, parts[1], digest[:4])
	}
	return &cosignatureVerifier{name: parts[0], hash: uint32(hash), key: ed25519.PublicKey(material[1:])}, nil
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fail(err)
	}
	logVerifier, err := note.NewVerifier(in.LogVkey)
	if err != nil {
		fail(err)
	}
	witnessVerifier, err := newCosignatureVerifier(in.WitnessVkey)
	if err != nil {
		fail(err)
	}
	opened, err := note.Open([]byte(in.Note), note.VerifierList(logVerifier, witnessVerifier))
	if err != nil {
		fail(err)
	}
	type verified struct {
		Name      string `json:"name"`
		Timestamp uint64 `json:"timestamp"`
	}
	out := []verified{}
	for _, sig := range opened.Sigs {
		raw, _ := base64.StdEncoding.DecodeString(sig.Base64)
		v := verified{Name: sig.Name}
		if sig.Name == witnessVerifier.name {
			v.Timestamp = binary.BigEndian.Uint64(raw[4:12])
		}
		out = append(out, v)
	}
	json.NewEncoder(os.Stdout).Encode(map[string]any{"text": opened.Text, "verified": out, "unverified": len(opened.UnverifiedSigs)})
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
