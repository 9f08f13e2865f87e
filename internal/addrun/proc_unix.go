//go:build unix

package addrun

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the benchmark in a process group of its own, so that an
// interrupt or a kill reaches the processes it started too (a shell
// script's children hold the output open).
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func interruptGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }

func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
