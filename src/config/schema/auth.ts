import { Type } from "@sinclair/typebox";
import { StringList } from "./primitives.js";

const positiveHours = () => Type.Number({ exclusiveMinimum: 0 });

/** Model-provider credentials: which keys to try in which order, and how long failed keys rest. */
export const AuthSchema = Type.Object({
  order: Type.Optional(Type.Record(Type.String(), StringList)),
  cooldowns: Type.Optional(
    Type.Object({
      billingBackoffHours: Type.Optional(positiveHours()),
      billingMaxHours: Type.Optional(positiveHours()),
      failureWindowHours: Type.Optional(positiveHours()),
    }),
  ),
});
