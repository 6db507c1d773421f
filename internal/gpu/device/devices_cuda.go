//go:build cuda

package device

import (
	"errors"
	"fmt"
	"strings"

	"gorgonia.org/cu"
)

// ResolveDevices returns the ordinals to open: those given, or every
// visible device when none are (CUDA_VISIBLE_DEVICES decides which are
// visible).
func ResolveDevices(ordinals []int) ([]int, error) {
	if len(ordinals) > 0 {
		return ordinals, nil
	}
	count, err := cu.NumDevices()
	if err != nil {
		return nil, fmt.Errorf("gpu: counting devices: %w", err)
	}
	if count == 0 {
		return nil, errors.New("gpu: no CUDA device found")
	}
	all := make([]int, count)
	for i := range all {
		all[i] = processOrdinal(i)
	}
	return all, nil
}

// EnablePeerAccess lets each device's context read the memory of every
// other GPU's context where the hardware allows it, and describes the
// links for the log: "peer access 0<->1", or copies "staged through host
// memory" (the driver does that for a peer copy without access), or
// "contexts on one GPU" for an ordinal listed twice.
func EnablePeerAccess(all []*Device) (string, error) {
	if len(all) < 2 {
		return "", nil
	}
	var links []string
	for i, a := range all {
		for j := i + 1; j < len(all); j++ {
			b := all[j]
			oa, ob := a.Ordinal(), b.Ordinal()
			if oa == ob {
				links = append(links, fmt.Sprintf("%d and %d are contexts on one GPU", oa, ob))
				continue
			}
			ab, err := enablePeer(a, b)
			if err != nil {
				return "", err
			}
			ba, err := enablePeer(b, a)
			if err != nil {
				return "", err
			}
			if ab && ba {
				links = append(links, fmt.Sprintf("peer access %d<->%d", oa, ob))
			} else {
				links = append(links, fmt.Sprintf("no peer access between %d and %d (copies staged through host memory)", oa, ob))
			}
		}
	}
	return strings.Join(links, ", "), nil
}

// enablePeer lets a's context access b's memory if the GPUs allow it, and
// reports whether it does.
func enablePeer(a, b *Device) (bool, error) {
	da, err := Lookup(a.Ordinal())
	if err != nil {
		return false, err
	}
	db, err := Lookup(b.Ordinal())
	if err != nil {
		return false, err
	}
	can, err := da.CanAccessPeer(db)
	if err != nil {
		return false, fmt.Errorf("gpu: can device %d access device %d: %w", a.Ordinal(), b.Ordinal(), err)
	}
	if can == 0 {
		return false, nil
	}
	peer := b.c.ctx
	err = a.Do(func(*Ctx) error { return peer.EnablePeerAccess(0) })
	if err != nil {
		return false, fmt.Errorf("gpu: enabling access from device %d to device %d: %w", a.Ordinal(), b.Ordinal(), err)
	}
	a.peersMu.Lock()
	a.peers = append(a.peers, b)
	a.peersMu.Unlock()
	return true, nil
}
