package dev.idempotency.transitions;

import jakarta.persistence.EntityManager;
import jakarta.persistence.metamodel.EntityType;
import jakarta.persistence.metamodel.SingularAttribute;
import java.util.Collection;
import java.util.Objects;
import java.util.Set;

/**
 * Guarded state transitions on JPA entities: advances an entity's status only from allowed pre-states,
 * in one conditional UPDATE, and tells the caller whether <em>this</em> call made the transition.
 *
 * <pre>
 *   UPDATE Order e SET e.status = :to [, e.version = e.version + 1]
 *    WHERE e.id = :id AND e.status IN :from
 * </pre>
 *
 * <p>The database decides: of any number of concurrent callers (threads or nodes) advancing one row
 * from the same pre-state, the row lock lets exactly one update it; the others re-check the condition
 * on the updated row and update nothing. A repeated call (a retried payment callback) therefore
 * returns false instead of doing the transition's side effects twice. Never read-then-write the
 * status for this decision.
 *
 * <p>Call it inside the caller's transaction (JPA requires one for an UPDATE); the transition commits
 * or rolls back with the caller's work. When the entity has a {@code @Version} attribute it is
 * incremented, so a stale copy loaded before the transition fails its own optimistic update. The
 * UPDATE bypasses the persistence context: an instance of the entity already loaded into it keeps the
 * old status until {@link EntityManager#refresh refresh}ed.
 */
public final class StatusTransitions {

    /** The status attribute's name when none is given. */
    public static final String DEFAULT_ATTRIBUTE = "status";

    private StatusTransitions() {}

    /**
     * Advances the entity's {@value #DEFAULT_ATTRIBUTE} attribute to {@code to}, if it is now in one
     * of {@code to.allowedFrom()}.
     *
     * @return true if this call made the transition; false if the entity was not in an allowed
     *     pre-state (already moved, by this call's earlier attempt or by another) or does not exist
     * @throws IllegalArgumentException when {@code to} has no allowed pre-state
     */
    public static <S extends Enum<S> & GuardedStatus<S>> boolean advance(
            EntityManager em, Class<?> entity, Object id, S to) {
        return advance(em, entity, id, DEFAULT_ATTRIBUTE, to);
    }

    /**
     * Advances the entity's status attribute {@code attribute} to {@code to}, if it is now in one of
     * {@code to.allowedFrom()}.
     *
     * @see #advance(EntityManager, Class, Object, Enum)
     */
    public static <S extends Enum<S> & GuardedStatus<S>> boolean advance(
            EntityManager em, Class<?> entity, Object id, String attribute, S to) {
        Objects.requireNonNull(to, "to");
        Set<S> from = to.allowedFrom();
        if (from.isEmpty()) {
            throw new IllegalArgumentException(to.getDeclaringClass().getSimpleName() + "." + to.name()
                    + " has no allowed pre-state (allowedFrom() is empty), so no transition leads to it;"
                    + " set it when the entity is created.");
        }
        return advance(em, entity, id, attribute, from, to);
    }

    /**
     * Sets {@code attribute} to {@code to} if its value is now in {@code from}: for status types that
     * do not implement {@link GuardedStatus} (strings, numbers, other enums).
     *
     * @param em the entity manager, in a transaction
     * @param entity the entity class
     * @param id the entity's id
     * @param attribute the status attribute's name
     * @param from the allowed pre-states; not empty
     * @param to the new status
     * @return true if this call made the transition
     */
    public static boolean advance(
            EntityManager em, Class<?> entity, Object id, String attribute, Collection<?> from, Object to) {
        Objects.requireNonNull(em, "em");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(to, "to");
        if (from == null || from.isEmpty()) {
            throw new IllegalArgumentException("a transition to " + to + " needs at least one allowed pre-state");
        }
        EntityType<?> type = em.getMetamodel().entity(entity);
        SingularAttribute<?, ?> idAttribute = type.getId(type.getIdType().getJavaType());
        if (type.getAttribute(attribute) == null) {
            throw new IllegalArgumentException(entity.getName() + " has no attribute " + attribute);
        }
        StringBuilder jpql = new StringBuilder("UPDATE ")
                .append(type.getName())
                .append(" e SET e.")
                .append(attribute)
                .append(" = :to");
        if (type.hasVersionAttribute()) {
            for (SingularAttribute<?, ?> a : type.getSingularAttributes()) {
                if (a.isVersion()) {
                    // Stale copies of the entity must fail their optimistic update after this transition.
                    jpql.append(", e.")
                            .append(a.getName())
                            .append(" = e.")
                            .append(a.getName())
                            .append(" + 1");
                }
            }
        }
        jpql.append(" WHERE e.")
                .append(idAttribute.getName())
                .append(" = :id AND e.")
                .append(attribute)
                .append(" IN :from");
        return em.createQuery(jpql.toString())
                        .setParameter("to", to)
                        .setParameter("id", id)
                        .setParameter("from", from)
                        .executeUpdate()
                == 1;
    }
}
