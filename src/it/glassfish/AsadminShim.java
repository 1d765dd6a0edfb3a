import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Stands in for {@code glassfish/modules/admin-cli.jar}, which the GlassFish Arquillian adapter (1.7) runs with
 * {@code java -jar} to start and stop the domain: GlassFish 8 no longer ships a runnable one. Runs the
 * {@code asadmin} named in {@code asadmin.path} next to this jar with the same arguments, and exits with its
 * status. setup.sh builds it for GlassFish 8 (see there).
 */
public final class AsadminShim {

    private AsadminShim() {}

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(AsadminShim.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> command = new ArrayList<>();
        command.add(Files.readString(jar.resolveSibling("asadmin.path")).trim());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).inheritIO().start();
        System.exit(p.waitFor());
    }
}
