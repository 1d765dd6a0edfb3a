package dev.idempotency.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyConfigurationException;
import dev.idempotency.IdempotencyKey;
import dev.idempotency.IdempotencyKeyMismatchException;
import dev.idempotency.Idempotent;
import dev.idempotency.internal.stores.memory.MemoryIdempotencyStore;
import dev.idempotency.spi.ConfigLookup;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.MappedSuperclass;
import jakarta.persistence.OneToMany;
import jakarta.persistence.Transient;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A JPA entity as a parameter and as a result is read as the user declared it: its own columns, not
 * the fields its JPA provider adds (written here as EclipseLink's weaving and Hibernate's enhancement
 * name them; the in-container suites run the real providers), not {@code @Transient} state, and not its
 * associations, which would have to be loaded. An entity loaded in part is refused before the call.
 */
class EntityValuesTest {

    /** A mapped superclass with a column of its own. */
    @MappedSuperclass
    public abstract static class Audited {
        private String createdBy;

        public String getCreatedBy() {
            return createdBy;
        }

        public void setCreatedBy(String createdBy) {
            this.createdBy = createdBy;
        }
    }

    /** An entity, with the fields EclipseLink's weaving and Hibernate's enhancement add to it. */
    @Entity
    public static class Account extends Audited {
        @Id
        private String id;

        private long balance;

        @Transient
        private String label;

        @OneToMany
        private List<Account> children = new ArrayList<>();

        @ManyToOne
        private Account parent;

        // As EclipseLink's weaving adds them (no getter: JSON-B would not write them).
        protected Object _persistence_fetchGroup;
        protected Object _persistence_primaryKey;

        // As Hibernate's bytecode enhancement adds it.
        private Object $$_hibernate_tracker;

        public Account() {}

        Account(String id, long balance) {
            this.id = id;
            this.balance = balance;
        }

        public String getId() {
            return id;
        }

        public void setId(String id) {
            this.id = id;
        }

        public long getBalance() {
            return balance;
        }

        public void setBalance(long balance) {
            this.balance = balance;
        }
    }

    static class Api {
        @Idempotent(name = "t.adjust")
        public Account adjust(@IdempotencyKey String id, Account account) {
            return account;
        }

        @Idempotent(name = "t.byEntity")
        public String byEntity(@IdempotencyKey Account account) {
            return "ran";
        }
    }

    private final AtomicInteger runs = new AtomicInteger();

    private static GuardedMethod plan(String name) {
        Method m = Arrays.stream(Api.class.getMethods())
                .filter(x -> x.getName().equals(name))
                .findFirst()
                .orElseThrow();
        OperationPolicy policy = new PolicyResolver(ConfigLookup.none()).resolve(m, m.getAnnotation(Idempotent.class));
        return GuardedMethod.plan(m, policy, new IdempotencyEngine(new MemoryIdempotencyStore()));
    }

    private Object call(GuardedMethod g, Object... args) throws Exception {
        return g.invoke(args, w -> "run-" + runs.incrementAndGet());
    }

    private static Account account(String id, long balance, String createdBy) {
        Account a = new Account(id, balance);
        a.setCreatedBy(createdBy);
        return a;
    }

    @Test
    void anEntityWithProviderFieldsIsAParameterAndAResult() {
        // Before: the deployment failed, naming Account._persistence_fetchGroup for a getter.
        assertThat(plan("adjust")).isNotNull();
        assertThat(ValueTypes.jsonbMisses(Account.class)).isEmpty();
    }

    @Test
    void anEntityIsReadByItsOwnColumns() throws Exception {
        GuardedMethod g = plan("byEntity");
        Account a = account("acc-1", 100, "ann");
        assertThat(call(g, a)).isEqualTo("run-1");

        Account same = account("acc-1", 100, "ann");
        same.label = "cached";
        same.parent = account("acc-0", 5, "bob");
        same.children.add(account("acc-2", 7, "bob"));
        same.$$_hibernate_tracker = new Object();
        same._persistence_primaryKey = "acc-1";
        assertThat(call(g, same))
                .as("the same columns: provider fields, @Transient state and associations are not read")
                .isEqualTo("run-1");

        assertThat(call(g, account("acc-1", 101, "ann"))).as("another balance").isEqualTo("run-2");
        assertThat(call(g, account("acc-1", 100, "eve")))
                .as("another column of the mapped superclass")
                .isEqualTo("run-3");
    }

    @Test
    void aChangedColumnUnderOneKeyIsAMismatch() throws Exception {
        GuardedMethod g = plan("adjust");
        call(g, "k", account("acc-1", 100, "ann"));
        assertThatThrownBy(() -> call(g, "k", account("acc-1", 90, "ann")))
                .isInstanceOf(IdempotencyKeyMismatchException.class);
    }

    @Test
    void anEntityLoadedInPartIsRefusedBeforeTheCallRuns() {
        GuardedMethod g = plan("byEntity");
        Account reference = new Account("acc-1", 0);
        reference._persistence_fetchGroup = new Object();
        assertThatThrownBy(() -> call(g, reference))
                .isInstanceOf(IdempotencyConfigurationException.class)
                .hasMessageContaining(Account.class.getName())
                .hasMessageContaining("loaded in part")
                .hasMessageContaining("did not run");
        assertThat(runs).hasValue(0);
    }
}
