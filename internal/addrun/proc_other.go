//go:build !unix

package addrun

import (
	"os"
	"os/exec"
)

func ownGroup(*exec.Cmd) {}

func interruptGroup(cmd *exec.Cmd) { cmd.Process.Signal(os.Interrupt) }

func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
