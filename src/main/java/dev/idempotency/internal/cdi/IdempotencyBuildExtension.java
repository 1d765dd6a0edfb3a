package dev.idempotency.internal.cdi;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.core.GlobalSettings;
import dev.idempotency.internal.jaxrs.HttpConfigCheck;
import dev.idempotency.lock.ClusterLock;
import dev.idempotency.messaging.IdempotentConsumer;
import dev.idempotency.spi.IdempotencyStore;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.build.compatible.spi.BeanInfo;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.build.compatible.spi.ClassConfig;
import jakarta.enterprise.inject.build.compatible.spi.Enhancement;
import jakarta.enterprise.inject.build.compatible.spi.Messages;
import jakarta.enterprise.inject.build.compatible.spi.MethodConfig;
import jakarta.enterprise.inject.build.compatible.spi.Registration;
import jakarta.enterprise.inject.build.compatible.spi.SkipIfPortableExtensionPresent;
import jakarta.enterprise.inject.build.compatible.spi.Synthesis;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import jakarta.enterprise.inject.build.compatible.spi.Validation;
import jakarta.enterprise.lang.model.declarations.ClassInfo;
import jakarta.enterprise.lang.model.declarations.MethodInfo;
import jakarta.enterprise.lang.model.types.Type;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@link IdempotencyExtension}'s work where only CDI Lite runs (Quarkus's ArC, which runs no
 * portable extension): binds the interceptor to methods whose {@code @Idempotent} is declared on an
 * interface or a superclass, applies {@code idempotency.interceptor.priority}, and fails the deployment
 * on invalid configuration with the same messages, through the same {@link GuardedScan} (and, as the
 * portable {@code HttpConfigCheck} and {@link ToolkitExtension} do, on invalid HTTP and toolkit keys). The methods it
 * found reach the runtime as a synthetic {@link BuildCompatibleScan} bean.
 *
 * <p>A CDI Full container (Weld on the EE servers and Helidon) runs the portable extension instead and
 * skips this one ({@link SkipIfPortableExtensionPresent}), so that the proven path stays the only one
 * there. On ArC this runs at build time: the configuration it checks is the build's; the runtime checks
 * the running configuration again when it starts.
 */
@SkipIfPortableExtensionPresent(IdempotencyExtension.class)
public class IdempotencyBuildExtension implements BuildCompatibleExtension {

    private final GuardedScan scan = new GuardedScan();
    private final ToolkitScan toolkit = new ToolkitScan();
    private final Set<String> stores = new TreeSet<>(Set.of(StoreSelector.MEMORY));
    private final List<IdempotencyConfigurationException> problems = new java.util.ArrayList<>();

    /** Finds the guarded methods of every class and binds those declared where CDI does not look. */
    @Enhancement(types = Object.class, withSubtypes = true)
    public void collect(ClassConfig type) {
        ClassInfo info = type.info();
        Boolean declares = info.isInterface() || info.isAnnotation() ? Boolean.FALSE : mayDeclare(info);
        if (Boolean.FALSE.equals(declares)) {
            return;
        }
        Class<?> cls;
        try {
            cls = Class.forName(info.name(), false, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            if (declares != null) {
                problems.add(new IdempotencyConfigurationException(
                        "The class " + info.name() + " declares @Idempotent methods, but it cannot be loaded to"
                                + " check them (" + e + "); add the classes it needs to the application.",
                        e));
            }
            // Else a class whose supertypes the application lacks (one of this library's optional
            // integrations): the container cannot make a bean of it either.
            return;
        }
        Set<Method> toBind = scan.collect(cls, GuardedScan.methodsOf(cls));
        if (toBind.isEmpty()) {
            return;
        }
        for (MethodConfig m : type.methods()) {
            if (toBind.stream().anyMatch(method -> same(m.info(), method))) {
                m.addAnnotation(IdempotencyExtension.IdempotentLiteral.INSTANCE);
            }
        }
    }

    /** Finds the {@code @ClusterLock} and {@code @IdempotentConsumer} methods, to check them as on CDI Full. */
    @Enhancement(
            types = Object.class,
            withSubtypes = true,
            withAnnotations = {ClusterLock.class, IdempotentConsumer.class})
    public void collectToolkit(ClassInfo type) {
        if (type.isInterface() || type.isAnnotation()) {
            return;
        }
        try {
            toolkit.collect(
                    Class.forName(type.name(), false, Thread.currentThread().getContextClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            problems.add(new IdempotencyConfigurationException(
                    "The class " + type.name() + " declares @ClusterLock or @IdempotentConsumer methods, but it"
                            + " cannot be loaded to check them (" + e
                            + "); add the classes it needs to the application.",
                    e));
        }
    }

    /** Applies {@code idempotency.interceptor.priority}, as the container reads it at build time. */
    @Enhancement(types = {IdempotentInterceptor.class, IdempotentWorkInterceptor.class})
    public void priority(ClassConfig type) {
        int priority;
        try {
            int guard = GlobalSettings.interceptorPriority(MicroProfileConfigLookup.current());
            priority = type.info().name().equals(IdempotentInterceptor.class.getName())
                    ? guard
                    : GlobalSettings.workInterceptorPriority(guard);
        } catch (IdempotencyConfigurationException e) {
            return; // reported by validate(), with every other configuration problem
        }
        int declared = type.info().name().equals(IdempotentInterceptor.class.getName())
                ? GlobalSettings.DEFAULT_INTERCEPTOR_PRIORITY
                : GlobalSettings.DEFAULT_WORK_INTERCEPTOR_PRIORITY;
        if (priority != declared) {
            type.removeAnnotation(a -> a.name().equals(Priority.class.getName()))
                    .addAnnotation(new IdempotencyExtension.PriorityLiteral(priority));
        }
    }

    /** Notes the store names the deployment offers. */
    @Registration(types = IdempotencyStore.class)
    public void store(BeanInfo bean) {
        if (bean.name() != null) {
            stores.add(bean.name());
        }
    }

    /** Hands the classes with guarded methods to the runtime. */
    @Synthesis
    public void synthesis(SyntheticComponents components) {
        components
                .addBean(BuildCompatibleScan.class)
                .type(BuildCompatibleScan.class)
                .withParam(
                        BuildCompatibleScan.CLASSES,
                        scan.guardedClasses().stream().map(Class::getName).toArray(String[]::new))
                .createWith(BuildCompatibleScan.Creator.class);
    }

    /** Fails the deployment on every problem {@link GuardedScan#validate} finds. */
    @Validation
    public void validate(Messages messages) {
        problems.forEach(messages::error);
        MicroProfileConfigLookup settings = MicroProfileConfigLookup.current();
        // What the portable HttpConfigCheck and ToolkitExtension check on CDI Full.
        try {
            HttpConfigCheck.checkKeys(settings);
        } catch (IdempotencyConfigurationException e) {
            messages.error(e);
        }
        toolkit.validate(settings).forEach(messages::error);
        scan.validate(
                        settings,
                        name -> {
                            if (!stores.contains(name)) {
                                throw StoreSelector.unknown(name, stores);
                            }
                        },
                        () -> null) // an interceptor ArC cannot load fails the build on its own
                .forEach(messages::error);
    }

    /**
     * Whether a class or a supertype carries {@code @Idempotent} on itself or a method, read from the
     * container's model: a cheap test before the class is loaded. A supertype outside the model (the
     * JDK's) declares none. {@code null} where the model cannot answer (a supertype the application
     * lacks): the class is then loaded and looked at, if it can be.
     */
    private static Boolean mayDeclare(ClassInfo info) {
        ArrayDeque<ClassInfo> types = new ArrayDeque<>(List.of(info));
        Set<String> seen = new HashSet<>();
        try {
            while (!types.isEmpty()) {
                ClassInfo c = types.poll();
                if (c == null || c.name().startsWith("java.") || !seen.add(c.name())) {
                    continue;
                }
                if (c.hasAnnotation(Idempotent.class)) {
                    return true;
                }
                for (MethodInfo m : c.methods()) {
                    if (m.hasAnnotation(Idempotent.class)) {
                        return true;
                    }
                }
                if (c.superClass() != null) {
                    types.add(declaration(c.superClass()));
                }
                for (Type i : c.superInterfaces()) {
                    types.add(declaration(i));
                }
            }
        } catch (RuntimeException modelCannotTell) {
            return null;
        }
        return false;
    }

    /** The class of a class or parameterized type, else {@code null}. */
    private static ClassInfo declaration(Type type) {
        return switch (type.kind()) {
            case CLASS -> type.asClass().declaration();
            case PARAMETERIZED_TYPE -> type.asParameterizedType().declaration();
            default -> null;
        };
    }

    /** Whether the container's method is the reflected one: same class, name and erased parameters. */
    private static boolean same(MethodInfo info, Method method) {
        if (!info.name().equals(method.getName())
                || !info.declaringClass()
                        .name()
                        .equals(method.getDeclaringClass().getName())
                || info.parameters().size() != method.getParameterCount()) {
            return false;
        }
        Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            if (!erasure(info.parameters().get(i).type()).equals(types[i].getTypeName())) {
                return false;
            }
        }
        return true;
    }

    /** A parameter type's erasure, named as {@link Class#getTypeName()} names it. */
    private static String erasure(Type type) {
        return switch (type.kind()) {
            case PRIMITIVE -> type.asPrimitive().name();
            case CLASS -> type.asClass().declaration().name();
            case PARAMETERIZED_TYPE -> type.asParameterizedType().declaration().name();
            case ARRAY -> erasure(type.asArray().componentType()) + "[]";
            case TYPE_VARIABLE -> type.asTypeVariable().bounds().isEmpty()
                    ? Object.class.getName()
                    : erasure(type.asTypeVariable().bounds().get(0));
            default -> Object.class.getName();
        };
    }
}
