import com.sun.tools.attach.VirtualMachine;

/**
 * Sends one command to async-profiler in a running JVM, the way its asprof launcher does: attach, and
 * load the agent library with the command as its options (a loaded agent takes each load as a command).
 *
 * <pre>java bench/http/profile/ProfilerControl.java PID /path/libasyncProfiler.so start,event=wall,interval=1ms,threads
 * java bench/http/profile/ProfilerControl.java PID /path/libasyncProfiler.so stop,file=/tmp/out.collapsed,collapsed</pre>
 */
public class ProfilerControl {
    public static void main(String[] args) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(args[0]);
        try {
            vm.loadAgentPath(args[1], args[2]);
        } finally {
            vm.detach();
        }
    }
}
